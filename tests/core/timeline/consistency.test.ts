/**
 * Property: with fixed lengths, the replayed step timeline and the closed form agree, because
 * both are built from training/terms.ts's phase quantities.
 *
 * Modelled (asserted here): decoder-only models, one GPU, no pipeline, no activation offloading;
 * LoRA, QLoRA (bitsandbytes 4-bit base) and full fine-tuning, with any checkpointing (none,
 * selective, full), gradient accumulation, zero_grad(set_to_none=False), optimizer in backward,
 * torch.compile and chunked loss. There the replay's peak of requested bytes equals the closed
 * form's allocated peak within 0.1 % (fractional weight shares rounded up to whole bytes): both
 * take the end of forward, the loss / LM-head backward, the layers' backward
 * (training/layer-backward.ts: layer i's gradients and saved or recomputed tensors next to the
 * gradients above and the saved tensors below — for a full fine-tune at layer 0 nearly every
 * gradient) and the optimizer step. The allocator's own peak is above it by the blocks' slack:
 * 512-byte rounding and a large-pool remainder of up to 1 MiB left unsplit (docs/reference/allocator.md §4,
 * `should_split`), which torch.cuda.max_memory_allocated counts and the closed form does not —
 * up to ~10 % when the saved tensors are just under 10 MiB (two per 20 MiB segment).
 * split=layers (training/layer-split.ts) is asserted on its most-loaded GPU, whose blocks the
 * replay lays out. The presets run at their real sizes in fewer runs; small random architectures (1–4 layers,
 * Llama / GPT-2 / Phi-3 / Gemma-2 traits) carry the thousands of runs, a replay of them being cheap.
 *
 * Not yet in agreement (neither side models them the same way):
 * - activation offloading: the replay brings each offloaded layer back for its backward one at a
 *   time, the closed form counts OFFLOAD_RESIDENT_LAYERS layers in flight at the loss;
 * - ZeRO / FSDP / DDP buffers on several GPUs: the replay holds three gathered units for a moment
 *   (the next is gathered before the oldest is freed), the closed form two; DeepSpeed's reduce
 *   buckets and step copies are not replayed;
 * - pipeline parallelism (pp > 1): the replay runs one stage over the whole model;
 * - encoder / encoder-decoder models (BERT, T5): the replay lays out one decoder stack;
 * - freeze: the replay spreads the trained block's gradients over every layer (within ~0.1 %).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { stepTimeline } from '../../../src/core/timeline';
import type { Scenario } from '../../../src/core/types';

const MODELS = [
  'openai-community/gpt2',
  'meta-llama/Llama-3.2-1B',
  'Qwen/Qwen2.5-0.5B',
  'google/gemma-2-2b',
  'microsoft/Phi-3-mini-4k-instruct',
  'meta-llama/Llama-2-7b-hf',
  'tiiuae/falcon-7b',
  'Qwen/Qwen3-30B-A3B',
];

const modelled = fc.record({
  model: fc.constantFrom(...MODELS),
  precision: fc.constantFrom('fp32', 'amp-bf16', 'bf16'),
  optimizer: fc.constantFrom('adamw', 'adamw-8bit', 'paged-adamw', 'sgd', 'sgd-momentum', 'adafactor', 'lion'),
  optimImpl: fc.constantFrom('foreach', 'fused', 'for-loop'),
  gradCkpt: fc.constantFrom('none', 'selective'),
  attn: fc.constantFrom('sdpa', 'eager', 'flash'),
  batch: fc.integer({ min: 1, max: 8 }),
  seq: fc.integer({ min: 16, max: 4096 }),
  gradAccum: fc.constantFrom(1, 4),
  gradZero: fc.constantFrom('none', 'zeros'),
  lossChunks: fc.constantFrom(1, 8),
  compile: fc.constantFrom('none', 'inductor'),
  optimStep: fc.constantFrom('after-backward', 'in-backward'),
  loraRank: fc.constantFrom(8, 64),
  loraTargets: fc.constantFrom(['q', 'v'], ['q', 'k', 'v', 'o', 'gate', 'up', 'down']),
  loraDropout: fc.constantFrom(0, 0.05),
}) as fc.Arbitrary<Partial<Scenario>>;

/** Asserts one scenario; returns the replay's reserved / the closed form's reserved (null: refused). */
function agree(s: Scenario): number | null {
  const e = estimate(s);
  if (!e.ok) return null;
  const t = stepTimeline(s);
  if (!t.ok) throw new Error('timeline refused a scenario estimate() accepted');
  const closed = e.value.allocatedBytes;
  expect(Math.abs(t.value.peakRequested / closed - 1)).toBeLessThan(1e-3);
  expect(t.value.peakAllocated).toBeGreaterThanOrEqual(t.value.peakRequested);
  // each block exceeds its request by < 512 B of rounding plus at most 1 MiB left unsplit
  expect(t.value.peakAllocated - t.value.peakRequested).toBeLessThanOrEqual(t.value.peakTensors * (2 ** 20 + 512));
  expect(t.value.peakReserved).toBeGreaterThanOrEqual(t.value.peakAllocated);
  return t.value.peakReserved / e.value.reservedBytes;
}

/** Runs `runs` scenarios of `arb` over `base`; returns the reserved ratios of those accepted. */
function property(arb: fc.Arbitrary<Partial<Scenario>>, base: Partial<Scenario>, runs: number, seed: number): number[] {
  const ratios: number[] = [];
  fc.assert(
    fc.property(arb, (o) => {
      const r = agree({ ...defaultScenario(), mode: 'training', ...base, ...o });
      if (r !== null) ratios.push(r);
    }),
    { numRuns: runs, seed },
  );
  return ratios;
}

/**
 * Small random architectures (1–4 layers): one replay of them costs a fraction of a preset's, so
 * the properties below can run thousands of scenarios. Families pick the traits that change the
 * inventory: Llama (gated, RMSNorm, untied), GPT-2 (plain MLP, LayerNorm, fused qkv, tied),
 * Phi-3 (fused qkv / gate-up), Gemma-2 (tied, four norms per layer).
 */
const tinyArch = fc
  .record({
    family: fc.constantFrom('llama', 'gpt2', 'phi3', 'gemma2'),
    heads: fc.constantFrom(4, 8),
    headDim: fc.constantFrom(32, 64),
    kvShare: fc.constantFrom(1, 4),
    layers: fc.integer({ min: 1, max: 4 }),
    ffnMult: fc.constantFrom(2, 4),
    vocab: fc.constantFrom(1000, 32000),
    tied: fc.boolean(),
  })
  .map(({ family, heads, headDim, kvShare, layers, ffnMult, vocab, tied }) => {
    const gpt = family === 'gpt2';
    const hidden = heads * headDim;
    return {
      family,
      hidden,
      layers,
      heads,
      kvHeads: gpt ? heads : heads / kvShare,
      headDim,
      ffn: ffnMult * hidden,
      vocab,
      gatedMlp: !gpt,
      norm: gpt ? 'layernorm' : 'rmsnorm',
      tiedEmbeddings: gpt || family === 'gemma2' || tied,
    };
  });

/** The knobs every regime shares, with full checkpointing. */
const common = {
  model: fc.constant('custom'),
  arch: tinyArch,
  precision: fc.constantFrom('fp32', 'amp-bf16', 'bf16'),
  optimizer: fc.constantFrom('adamw', 'adamw-8bit', 'paged-adamw', 'sgd', 'adafactor', 'lion'),
  optimImpl: fc.constantFrom('foreach', 'fused', 'for-loop'),
  gradCkpt: fc.constantFrom('none', 'selective', 'full'),
  attn: fc.constantFrom('sdpa', 'eager', 'flash'),
  batch: fc.integer({ min: 1, max: 4 }),
  seq: fc.integer({ min: 16, max: 2048 }),
  gradAccum: fc.constantFrom(1, 1, 4),
  gradZero: fc.constantFrom('none', 'none', 'zeros'),
  lossChunks: fc.constantFrom(1, 8),
  compile: fc.constantFrom('none', 'inductor'),
  optimStep: fc.constantFrom('after-backward', 'after-backward', 'in-backward'),
};

const full = fc.record(common) as fc.Arbitrary<Partial<Scenario>>;
const adapters = fc.record({
  ...common,
  loraRank: fc.constantFrom(8, 64),
  loraTargets: fc.constantFrom(['q', 'v'], ['q', 'k', 'v', 'o', 'gate', 'up', 'down']),
  loraDropout: fc.constantFrom(0, 0.05),
}) as fc.Arbitrary<Partial<Scenario>>;
const qlora = fc.record({
  ...common,
  precision: fc.constantFrom('amp-bf16', 'bf16', 'fp32'),
  weights: fc.constantFrom('nf4', 'fp4'),
  bnbCompute: fc.constantFrom('bf16', 'fp32'),
  bnbVersion: fc.constantFrom('current', 'legacy'),
  loraRank: fc.constantFrom(8, 64),
  loraTargets: fc.constantFrom(['q', 'v'], ['q', 'k', 'v', 'o', 'gate', 'up', 'down']),
}) as fc.Arbitrary<Partial<Scenario>>;

describe('timeline ⇔ closed form (fixed lengths)', () => {
  it('LoRA on one GPU: requested peak = allocated within 0.1 %; allocator peak above it by block slack only', () => {
    const reservedRatio = property(modelled, { method: 'lora', weights: 'bf16' }, 120, 20261125);
    expect(reservedRatio.length).toBeGreaterThan(60);
    // one fixed-length step leaves little to fragment: the replay's reserved peak sits near the
    // closed form's segment-rounding estimate (runtime.ts segmentWaste) in the median
    reservedRatio.sort((a, b) => a - b);
    const median = reservedRatio[Math.floor(reservedRatio.length / 2)];
    expect(median).toBeGreaterThan(0.95);
    expect(median).toBeLessThan(1.05);
  });

  it('full fine-tuning (any checkpointing) on one GPU: requested peak = allocated within 0.1 %', () => {
    expect(property(full, { method: 'full', weights: 'bf16' }, 500, 20261126).length).toBeGreaterThan(320);
    expect(property(full, { method: 'full', weights: 'fp32' }, 200, 20261127).length).toBeGreaterThan(120);
    // the presets, MoE included, at their real sizes
    const presets = fc.record({
      model: fc.constantFrom(...MODELS),
      gradCkpt: fc.constantFrom('none', 'full'),
      seq: fc.integer({ min: 16, max: 4096 }),
      batch: fc.integer({ min: 1, max: 4 }),
    }) as fc.Arbitrary<Partial<Scenario>>;
    expect(property(presets, { method: 'full', weights: 'bf16', precision: 'amp-bf16' }, 30, 20261130).length).toBeGreaterThan(25);
  });

  it('LoRA with full checkpointing, any checkpointing: requested peak = allocated within 0.1 %', () => {
    expect(property(adapters, { method: 'lora', weights: 'bf16' }, 600, 20261128).length).toBeGreaterThan(400);
  });

  it('split=layers (device_map="auto"): the most-loaded GPU\'s replay = its closed form within 0.1 %', () => {
    const split = fc.record({ ...common, method: fc.constantFrom('full', 'lora'), gpus: fc.integer({ min: 2, max: 4 }) }) as fc.Arbitrary<Partial<Scenario>>;
    expect(property(split, { weights: 'bf16', split: 'layers' }, 400, 20261132).length).toBeGreaterThan(150);
  });

  it('QLoRA (bitsandbytes 4-bit base): requested peak = allocated within 0.1 %', () => {
    expect(property(qlora, { method: 'qlora' }, 600, 20261129).length).toBeGreaterThan(400);
  });
});
