// Every unit test starts with the image-generation and training estimators loaded, as the CLI has them
// and as the page has them once a scenario needs one (core/diffusion/provider.ts, core/training/provider.ts;
// tests/core/diffusion/provider.test.ts and tests/core/training/provider.test.ts cover the answer before
// they are loaded).
import '../src/core/all-estimators';
