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
