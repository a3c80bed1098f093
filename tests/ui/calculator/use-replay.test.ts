import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { estimateWithReplay } from '../../../src/core/timeline';
import { estimateOf } from '../../../src/ui/calculator/use-estimate';
import { loadReplay, needsReplay, replayedEstimateOf } from '../../../src/ui/calculator/use-replay';

describe('replayed estimate on the page', () => {
  const fixed = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', mode: 'training' as const, method: 'lora' as const, seq: 1024 };
  const varied = { ...fixed, lengths: 'varied' as const };

  it('replays training on one process (varied lengths, or fixed without ZeRO / tp / pp) and transformers generate with SDPA or eager in 16-bit on one GPU', () => {
    expect(needsReplay(varied)).toBe(true);
    expect(needsReplay(fixed)).toBe(true);
    expect(needsReplay({ ...fixed, gpus: 2, zero: 2 })).toBe(false);
    const generate = { ...fixed, mode: 'inference' as const, engine: 'transformers' as const, attn: 'sdpa' as const, weights: 'bf16' as const, kv: 'bf16' as const };
    expect(needsReplay(generate)).toBe(true);
    expect(needsReplay({ ...generate, attn: 'eager' })).toBe(true);
    expect(needsReplay({ ...generate, attn: 'flash' })).toBe(false);
    expect(needsReplay({ ...generate, weights: 'nf4' })).toBe(false);
    // vLLM sizes its own pool: the memoised closed form itself, no replay
    const vllm = { ...generate, engine: 'vllm' as const };
    expect(needsReplay(vllm)).toBe(false);
    expect(replayedEstimateOf(vllm)).toBe(estimateOf(vllm));
  });

  it('varied: the closed form until the replay code is in, then reserved from the replay, computed once per scenario object', async () => {
    expect(replayedEstimateOf(varied)).toBe(estimateOf(varied));
    await loadReplay();
    const r = replayedEstimateOf(varied);
    const direct = estimateWithReplay(varied);
    if (!r.ok || !direct.ok) throw new Error('rejected');
    expect(r.value.reservedBytes).toBe(direct.value.reservedBytes);
    expect(replayedEstimateOf(varied)).toBe(r);
    const closed = estimateOf(varied);
    if (!closed.ok) throw new Error('rejected');
    expect(r.value.allocatedBytes).toBe(closed.value.allocatedBytes);
    expect(r.value.reservedBytes).toBeGreaterThanOrEqual(closed.value.allocatedBytes);
  });
});
