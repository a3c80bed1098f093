// Speed of the step timeline (src/core/timeline): one replay of an 80-layer model through the
// caching-allocator model (target ≤ 30 ms) in training and in `generate` (the prompt pass tensor by tensor, 64 tokens
// decoded), and the varied-length replay (201 orders ranked, 13 replayed with an auto mean) it is deferred for.
import { defaultScenario } from '../src/core/scenario/schema';
import { estimateWithReplay, stepTimeline } from '../src/core/timeline';
import type { Scenario } from '../src/core/types';
import { medianMicros, type BenchRow } from './types';

export default function bench(): BenchRow[] {
  const llama70: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-2-70b-hf', mode: 'training', method: 'lora', seq: 2048 };
  const generate70: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-2-70b-hf', mode: 'inference', engine: 'transformers', weights: 'bf16', attn: 'sdpa', prompt: 32768, gen: 64 };
  const varied: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', mode: 'training', method: 'lora', seq: 2048, lengths: 'varied' };
  return [
    { name: 'timeline with replay, 80-layer model (Llama-2-70b LoRA, 2 steps)', value: medianMicros(() => stepTimeline(llama70), 15, 5) / 1000, unit: 'ms', target: 30 },
    { name: 'estimateWithReplay(), 80-layer generate (Llama-2-70b, 32k prompt, 64 new tokens)', value: medianMicros(() => estimateWithReplay(generate70), 15, 5) / 1000, unit: 'ms', target: 30 },
    {
      name: 'estimateWithReplay(): lengths=varied, len-mean auto: 201 orders ranked, 9 replayed, 2 more at each shorter mean (Llama-2-7b LoRA)',
      value: medianMicros(() => estimateWithReplay(varied), 7, 2) / 1000,
      unit: 'ms',
    },
  ];
}
