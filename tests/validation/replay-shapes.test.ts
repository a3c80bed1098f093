/**
 * The step replay's tensor shapes (core/timeline/training.ts) against a recorded run: t021 of
 * fixtures/measured-gpu.json (Qwen2.5-0.5B, full fine-tune with AMP bf16 over fp32 weights, SDPA,
 * seq 4096, batch 1, no checkpointing), recorded on our H200 by
 * `python3 tools/measure/measure_trainer.py --trace --only t021` (torch 2.11, transformers 5.17,
 * torch.cuda.memory._record_memory_history). The figures below are read from that trace:
 * - its first allocation is the fp32 embedding, 151,936 × 896 × 4 = 544,538,624 B;
 * - at the end of the forward (before the LM head) it holds 99 tensors of 4096 × 896 × 4 =
 *   14,680,064 B: 4 per layer × 24 layers, + 3 of the final norm. Each Qwen2RMSNorm (the
 *   LlamaRMSNorm code) saves its fp32 input (`pow(2)` and `*` read it) and its fp32 normalised
 *   tensor (`hidden_states * torch.rsqrt(...)`; under AMP the residual stream is fp32), two norms a layer.
 */
import { describe, expect, it } from 'vitest';
import { stepTimeline } from '../../src/core/timeline';
import { GPU_ROWS, gpuScenario } from '../../src/validation/measured-gpu';

const row = GPU_ROWS.find((r) => r.id === 't021');
if (!row) throw new Error('t021 missing from measured-gpu.json');

const t = stepTimeline(gpuScenario(row), { record: true, steps: 1 });
if (!t.ok) throw new Error('refused');
const trace = t.value.trace ?? [];

/** sizes of the tensors live just before the first allocation of `bytes` */
function liveBefore(bytes: number): number[] {
  const live = new Map<string, number>();
  for (const e of trace) {
    if (e.op === 'alloc') {
      if (e.size === bytes) break;
      live.set(e.name, e.size);
    } else if (e.op === 'free') live.delete(e.name);
  }
  return [...live.values()];
}

describe('t021 (Qwen2.5-0.5B, AMP full fine-tune) replayed at its recorded shapes', () => {
  const sizes = trace.flatMap((e) => (e.op === 'alloc' ? [e.size] : []));

  it('lays out the fp32 embedding first, at its recorded 544,538,624 B (every layer’s tensors on the GPU, not the 16-bit share)', () => {
    expect(151_936 * 896 * 4).toBe(544_538_624);
    // the weight tensors are the whole model's: the AMP term counts 2 B per parameter, the tensors 4 B
    expect(Math.abs(sizes[0] / 544_538_624 - 1)).toBeLessThan(1e-3);
  });

  it('holds the norms’ fp32 token × hidden tensors at their own size when the LM head starts: 4 per layer of 14,680,064 B', () => {
    expect(4096 * 896 * 4).toBe(14_680_064);
    // the logits, 4096 × 151,936 × 2 B, are the LM head's first tensor
    expect(liveBefore(4096 * 151_936 * 2).filter((x) => x === 14_680_064)).toHaveLength(4 * 24);
  });
});
