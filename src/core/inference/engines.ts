/** The vLLM and llama.cpp estimators, one chunk the page loads on demand (engine-provider.ts). */
import { provideEngines } from './engine-provider';
import { buildLlamaCpp } from './llamacpp';
import { buildVllm } from './vllm';

provideEngines({ vllm: buildVllm, llamacpp: buildLlamaCpp });
