// Cost of an estimate at the extremes (Llama-3.1-405B / DeepSeek-V3, 1M tokens, 1,024 GPUs,
// batch 4,096, ZeRO-3 + TP + PP) beside a small one: the model is closed-form, so all should be
// the same order (target: within 10× of the small estimate, i.e. ≤ 200 µs).
import { estimate } from '../src/core/estimate';
import { parseScenario } from '../src/core/scenario';
import { maxContext } from '../src/core/solve';
import { medianMicros, type BenchRow } from './types';

const scenario = (rec: Record<string, string>) => parseScenario(rec).scenario;
/** Untimed calls before each row, as in estimate.bench.ts: JIT-warm, like the page's repeated calls. */
const WARMUP = 5000;

export default function bench(): BenchRow[] {
  const small = scenario({ model: 'openai-community/gpt2', prompt: '512', gen: '64' });
  const rows: [string, Record<string, string>][] = [
    ['Llama-3.1-405B inference, 1M tokens, tp 8', { model: 'meta-llama/Llama-3.1-405B', prompt: '1048000', gen: '576', tp: '8', gpus: '8', weights: 'fp8' }],
    ['DeepSeek-V3 inference, 1M tokens, tp 8', { model: 'deepseek-ai/DeepSeek-V3', prompt: '1048000', gen: '576', tp: '8', gpus: '8', weights: 'fp8' }],
    [
      'Llama-3.1-405B training, 1,024 GPUs, ZeRO-3 tp 8 pp 8, batch 4,096',
      { model: 'meta-llama/Llama-3.1-405B', mode: 'training', seq: '4096', batch: '4096', gpus: '1024', zero: '3', tp: '8', pp: '8', 'grad-ckpt': 'full' },
    ],
    [
      'DeepSeek-V3 training, 1,024 GPUs, ZeRO-3 tp 8 pp 16, batch 4,096',
      { model: 'deepseek-ai/DeepSeek-V3', mode: 'training', seq: '4096', batch: '4096', gpus: '1024', zero: '3', tp: '8', pp: '16', 'grad-ckpt': 'full' },
    ],
  ];
  const out: BenchRow[] = [{ name: 'estimate(): GPT-2 inference, 512 tokens (small reference)', value: medianMicros(() => estimate(small), 2000, WARMUP), unit: 'µs', target: 20 }];
  for (const [name, rec] of rows) {
    const s = scenario(rec);
    out.push({ name: `estimate(): ${name}`, value: medianMicros(() => estimate(s), 2000, WARMUP), unit: 'µs', target: 200 });
  }
  const long = scenario(rows[0][1]);
  out.push({ name: 'maxContext(): Llama-3.1-405B on 141 GB (binary search to 16 Mi tokens)', value: medianMicros(() => maxContext(long, 141e9), 50, 5) / 1000, unit: 'ms', target: 20 });
  return out;
}
