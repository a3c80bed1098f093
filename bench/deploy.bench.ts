// Deployment answers: ranking the whole GPU catalogue for one scenario (issue: ≤ 5 ms for the catalogue, 54 GPUs then; 65 entries with the Apple memory configurations),
// and the roofline speed bounds shown beside the verdict.
import { recommend } from '../src/core/deploy/recommend';
import { rooflineSpeed } from '../src/core/deploy/speed';
import { estimate, resolveModel } from '../src/core/estimate';
import { findGpu, GPUS } from '../src/core/gpus';
import { estimateWithReplay } from '../src/core/timeline';
import { defaultScenario } from '../src/core/scenario/schema';
import { medianMicros, type BenchRow } from './types';

export default function bench(): BenchRow[] {
  const s = { ...defaultScenario(), model: 'meta-llama/Llama-3.1-8B', prompt: 8192, gen: 256 };
  const vllm = { ...s, engine: 'vllm' as const };
  const big = { ...defaultScenario(), model: 'meta-llama/Llama-3.1-70B', mode: 'training' as const, method: 'qlora' as const, weights: 'nf4' as const };
  // llama.cpp: cards too small take more GPUs in its layer split (tensor-split), each plan placed layer by layer
  const gguf = { ...defaultScenario(), model: 'meta-llama/Llama-3.1-70B', engine: 'llama.cpp' as const, weights: 'gguf-q4_k_m' as const, kv: 'fp16' as const };
  const e = estimate({ ...s, gpu: 'h100-sxm' });
  const arch = resolveModel(s);
  const h100 = findGpu('h100-sxm')!;
  // the settled page's case: fixed-length training on one process, every card judged from the replayed estimate
  const train = { ...defaultScenario(), model: 'meta-llama/Llama-3.2-1B', mode: 'training' as const, method: 'full' as const, batch: 4, seq: 2048 };
  const replayed = estimateWithReplay(train);
  if (!e.ok || !arch.ok || !replayed.ok) throw new Error('bench scenario failed');
  return [
    { name: `recommend: rank ${GPUS.length} GPUs (Llama-3.1-8B, transformers)`, value: medianMicros(() => recommend(s), 50, 10) / 1000, unit: 'ms', target: 5 },
    { name: `recommend: rank ${GPUS.length} GPUs (vLLM: one estimate per card)`, value: medianMicros(() => recommend(vllm), 50, 10) / 1000, unit: 'ms', target: 5 },
    { name: `recommend: rank ${GPUS.length} GPUs (70B QLoRA, many need several)`, value: medianMicros(() => recommend(big), 50, 10) / 1000, unit: 'ms', target: 5 },
    { name: `recommend: rank ${GPUS.length} GPUs (70B Q4_K_M on llama.cpp, layer split)`, value: medianMicros(() => recommend(gguf), 50, 10) / 1000, unit: 'ms', target: 5 },
    {
      name: `recommend: rank ${GPUS.length} GPUs from a given replayed estimate (Llama-3.2-1B full, b4×2048)`,
      value: medianMicros(() => recommend(train, GPUS, 1, replayed.value), 50, 10) / 1000,
      unit: 'ms',
      target: 5,
    },
    { name: 'roofline speed bounds, one scenario', value: medianMicros(() => rooflineSpeed(s, e.value, arch.value.arch, h100, 0.4), 2000, 500), unit: 'µs', target: 20 },
  ];
}
