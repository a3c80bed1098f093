// Speed of the memory model: one estimate (target ≤ 20 µs) and a 1,000-point sweep (≤ 20 ms).
import { estimate } from '../src/core/estimate';
import { defaultScenario } from '../src/core/scenario/schema';
import { sweep } from '../src/core/solve';
import type { Scenario } from '../src/core/types';
import { medianMicros, type BenchRow } from './types';

export default function bench(): BenchRow[] {
  const inference: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf' };
  const training: Scenario = { ...inference, mode: 'training', method: 'lora', gradCkpt: 'full' };
  const values = Array.from({ length: 1000 }, (_, i) => 64 + i * 64);
  // The page calls estimate() hundreds of times per drag and per sweep, so the figure that matters
  // is the JIT-warm one: 5,000 untimed calls first (with 200, the first path timed was still being
  // optimised and read 2-4x slower than the same path a moment later).
  return [
    { name: 'estimate(): inference, one scenario', value: medianMicros(() => estimate(inference), 2000, 5000), unit: 'µs', target: 20 },
    { name: 'estimate(): training (LoRA), one scenario', value: medianMicros(() => estimate(training), 2000, 5000), unit: 'µs', target: 20 },
    { name: 'sweep(): 1,000 prompt lengths', value: medianMicros(() => sweep(inference, 'prompt', values), 30, 5) / 1000, unit: 'ms', target: 20 },
  ];
}
