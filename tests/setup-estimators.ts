// Every unit test starts with the image-generation estimator loaded, as the CLI has it and as the page
// has it once an image model is shown (core/diffusion/provider.ts; tests/core/diffusion/provider.test.ts
// covers the answer before it is loaded).
import '../src/core/diffusion/build';
