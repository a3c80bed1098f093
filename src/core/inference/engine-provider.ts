/**
 * The vLLM and llama.cpp estimators (vllm.ts, llamacpp.ts) as a slot that engines.ts fills when it is
 * loaded, so the page's entry carries only transformers' estimator: estimate() answers an inference
 * scenario on another engine with 'engines.loading' until the chunk is in
 * (ui/calculator/estimator-loader.ts fetches it; the CLI and the tests import it up front through
 * all-estimators.ts).
 */
import type { Built, Ctx } from '../estimate-context';
import type { Result } from '../types';
import { lazySlot, loadingAnswer } from '../lazy-slot';

/**
 * vLLM's `max_num_batched_tokens` when chunked prefill is on and the user sets none: 8192 (vLLM V1
 * `EngineArgs` default for the OpenAI server on large GPUs; heuristic across versions). Here, not in
 * vllm.ts, because the form shows it for `ubatch=auto` before the engine's chunk is in.
 */
export const VLLM_DEFAULT_BATCHED_TOKENS = 8192;

/** llama.cpp's default n_ubatch (common/common.h); here for the same reason. */
export const LLAMACPP_DEFAULT_UBATCH = 512;

export interface EngineBuilders {
  vllm: (ctx: Ctx) => Built;
  llamacpp: (ctx: Ctx) => Built;
}

const slot = lazySlot<EngineBuilders>();

/** Called by engines.ts as it loads. */
export const provideEngines = slot.provide;

/** The builders, or null while engines.ts has not been loaded. */
export const engineBuilders = slot.get;

/** The answer while the chunk is on the way (never a number). */
export const enginesLoading = (engine: string): Result<never> => loadingAnswer('engine', 'engines.loading', `the ${engine} estimator is still loading`, { engine });
