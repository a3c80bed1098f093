/**
 * The remote-code runtime (remote-runtime.ts) as a slot it fills when it is loaded, so the page's
 * entry carries none of it: estimate() asks the slot for an inference scenario on transformers of a
 * family whose own modeling file the estimate follows, and answers 'remote.loading' until the chunk
 * is in (ui/calculator/estimator-loader.ts fetches it; the CLI and the tests import it up front
 * through all-estimators.ts).
 */
import type * as Remote from './remote-runtime';
import type { ModelArch, Result, Scenario } from '../types';
import { lazySlot, loadingAnswer } from '../lazy-slot';
import type { OwnForward } from './hf-prefill-shape';

export type RemoteModule = Pick<typeof Remote, 'ownRuntime'>;

const slot = lazySlot<RemoteModule>();

/** Called by remote-runtime.ts as it loads. */
export const provideRemote = slot.provide;

/** The runtime, or null while remote-runtime.ts has not been loaded. */
export const remoteModule = slot.get;

/** config.json `model_type`s whose own modeling file (trust_remote_code) remote-runtime.ts reads. */
export const REMOTE_FAMILIES: ReadonlySet<string> = new Set(['qwen', 'chatglm', 'baichuan', 'internlm', 'internlm2']);

/** Whether the estimate of `s` over `arch` follows the model's own file (transformers inference). */
export function followsOwnFile(s: Pick<Scenario, 'mode' | 'engine'>, family: string | undefined): boolean {
  return s.mode === 'inference' && s.engine === 'transformers' && family !== undefined && REMOTE_FAMILIES.has(family);
}

/** The answer while the runtime is on the way (never a number). */
export function remoteLoading(arch: ModelArch): Result<never> {
  return loadingAnswer('model', 'remote.loading', `the ${arch.family} runtime is still loading`, { family: arch.family });
}

/**
 * The remote files whose prompt pass inference/remote-prefill.ts lays out tensor by tensor: ChatGLM2/3
 * and Baichuan-13B (ALiBi), whose files ignore the attn key; Qwen-1 with its own 8-bit cache (kv=int8,
 * eager `_attn`) or under SDPA (any attn but flash, which the flash-attn package runs). Null for the
 * others, replayed one block per layer.
 */
export function ownLaidOut(arch: Partial<Pick<ModelArch, 'family' | 'gatedMlp' | 'alibi'>>, s: Pick<Scenario, 'attn' | 'kv'>): OwnForward | null {
  switch (arch.family) {
    case 'chatglm':
      return arch.gatedMlp ? 'chatglm2' : null;
    case 'baichuan':
      return arch.alibi ? 'baichuan-alibi' : null;
    case 'qwen':
      return s.kv === 'int8' ? 'qwen-kv8' : s.attn === 'flash' ? null : 'qwen';
    default:
      return null;
  }
}
