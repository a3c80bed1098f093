/**
 * An adapted Linear's forward tensors, by hand from PEFT `lora.Linear.forward`
 * (peft/tuners/lora/layer.py) and aten's ops, and against t000's recorded run (Llama-3.2-1B, pure
 * bf16 under Trainer autocast, fp32 adapters, lora_dropout 0.05, 2,048 tokens; torch 2.11, peft
 * 0.21), whose first decoder layer's q_proj made, in order (sizes ≥ 1 MB; trace events 1184–1199):
 * +8 MiB, +16 MiB, +4 MiB, +16 MiB, +8 MiB, −16 MiB, +8 MiB, +8 MiB, −8 MiB, +8 MiB, −8 MiB,
 * −8 MiB (the base output), −16 MiB (the fp32 cast), with lora_A's 64 KiB output among them.
 */
import { describe, expect, it } from 'vitest';
import { loraLayerActivation } from '../../../src/core/training/lora-activations';
import { planExcess, planSaved } from '../../../src/core/training/layer-plan';
import { loraLayerPlan, loraLinearForward } from '../../../src/core/training/lora-forward';
import type { ModelArch } from '../../../src/core/types';
import { signed } from './plan-events';

const MiB = 2 ** 20;

describe('one adapted Linear’s forward (PEFT lora.Linear.forward)', () => {
  it('t000’s q_proj: base, fp32 cast, mask, dropout, autocast copy, lora_A, lora_B, scaled, sum — the recorded order and sizes', () => {
    const ev = loraLinearForward({ tokens: 2048, dIn: 2048, dOut: 2048, rank: 16, dropout: 0.05, inputBytes: 2, outputBytes: 2, adapterBytes: 4, autocast: 2 });
    // s·h·2 = 8 MiB, s·h·4 = 16 MiB, mask s·h·1 = 4 MiB, lora_A output s·r·2 = 64 KiB
    expect(signed(ev)).toEqual([8 * MiB, 16 * MiB, 4 * MiB, 16 * MiB, 8 * MiB, 64 * 1024, -16 * MiB, 8 * MiB, 8 * MiB, -8 * MiB, 8 * MiB, -8 * MiB, -8 * MiB, -16 * MiB, -8 * MiB]);
    // saved: the mask, autocast's bf16 copy (lora_A's input) and lora_A's output (lora_B's input)
    expect(planSaved(ev)).toBe(4 * MiB + 8 * MiB + 64 * 1024);
  });

  it('16-bit adapters, no dropout, no autocast: lora_A reads x itself, so only its r-wide output is new and saved', () => {
    // 4 tokens, 8 → 6, r = 2, all fp16: base 4·6·2 = 48, lora_A 4·2·2 = 16, lora_B / scaled / sum 48
    const ev = loraLinearForward({ tokens: 4, dIn: 8, dOut: 6, rank: 2, dropout: 0, inputBytes: 2, outputBytes: 2, adapterBytes: 2, autocast: null });
    expect(signed(ev)).toEqual([48, 16, 48, 48, -48, 48, -48, -48, -48]);
    expect(planSaved(ev)).toBe(16);
  });

  it('fp32 adapters without autocast: the fp32 product promotes the sum, cast back to the base dtype', () => {
    // x 4·8 bf16 → cast 4·8·4 = 128; mask 32; dropout output 128 (saved: lora_A computes in fp32);
    // lora_A 4·2·4 = 32; lora_B, scaled 4·6·4 = 96; sum bf16 + fp32 → fp32 96, then .to(bf16) 48
    const ev = loraLinearForward({ tokens: 4, dIn: 8, dOut: 6, rank: 2, dropout: 0.1, inputBytes: 2, outputBytes: 2, adapterBytes: 4, autocast: null });
    expect(signed(ev)).toEqual([48, 128, 32, 128, 32, 96, 96, -96, 96, -96, -48, 48, -96, -128, -48]);
    expect(planSaved(ev)).toBe(32 + 128 + 32);
  });

  it('saves what the closed form’s inventory counts for the adapters (lora-activations.ts), adapter by adapter', () => {
    const arch: ModelArch = {
      family: 'llama',
      hidden: 256,
      layers: 1,
      heads: 4,
      kvHeads: 2,
      headDim: 64,
      ffn: 512,
      vocab: 1000,
      gatedMlp: true,
      norm: 'rmsnorm',
      tiedEmbeddings: false,
      normsPerLayer: 2,
      qkvBias: false,
      oBias: false,
      mlpBias: false,
    };
    const dt = { e: 2, eRes: 2, eF32: 2 };
    const lora = { targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const, rank: 8, dropout: 0.05, adapterBytes: 4, autocast: true };
    const withAdapters = loraLayerActivation(arch, 16, 1, dt, 'sdpa', 1, false, false, { ...lora, targets: [...lora.targets] });
    const none = loraLayerActivation(arch, 16, 1, dt, 'sdpa', 1, false, false, { ...lora, targets: [] });
    // q / k / v / gate / up read h = 256 wide inputs, o reads a·d = 256, down f = 512; each saves mask + bf16 copy + r·2
    const io: [number, number][] = [
      [256, 256],
      [256, 128],
      [256, 128],
      [256, 256],
      [256, 512],
      [256, 512],
      [512, 256],
    ];
    const saved = io.map(([dIn, dOut]) => planSaved(loraLinearForward({ tokens: 16, dIn, dOut, rank: 8, dropout: 0.05, inputBytes: 2, outputBytes: 2, adapterBytes: 4, autocast: 2 })));
    expect(saved.reduce((a, b) => a + b, 0)).toBe(16 * (6 * 256 * 3 + 512 * 3 + 7 * 8 * 2));
    expect(withAdapters.linear - none.linear).toBe(saved.reduce((a, b) => a + b, 0));
  });
});

describe('a layer plan and its temporaries above what it keeps', () => {
  it('keeps the saves, frees every temporary; the excess is the largest moment above the kept bytes, by hand', () => {
    const down = {
      target: 'down' as const,
      events: loraLinearForward({ tokens: 4, dIn: 8, dOut: 6, rank: 2, dropout: 0, inputBytes: 2, outputBytes: 2, adapterBytes: 2, autocast: null }),
      copies: false,
    };
    // one norm copy of 100 B, attention saves 10 + 10, an MLP save of 64 B (×1); the down adapter reads
    // the product as it is (no copy), so the product is not a temporary here; 16 B lora_A output
    const plan = loraLayerPlan([down], 100 + 20 + 64 + 16 + 5, { norm: 100, norms: 1, attn: [10, 10], mlp: 64, mlps: 1 }, true);
    const kept = plan.filter((e): e is { alloc: number; saved: boolean } => 'alloc' in e && e.saved).reduce((n, e) => n + e.alloc, 0);
    // the 5 B left over is laid out last as one tensor
    expect(kept).toBe(205);
    // the peak is in down's forward: the 200 B saved by then (184 + lora_A's 16) + base 48 + lora_B 48
    // + scaled 48 = 344 B; the plan ends holding 205, so its temporaries reach 344 − 205 = 139 B above
    expect(planExcess(plan)).toBe(139);
  });
});

/**
 * Eager attention's score-sized tensors in a LoRA layer (transformers modeling_gemma2.py
 * `eager_attention_forward`, 16-bit model): S = one score tensor's bytes, O = the attention output's.
 */
describe('eager attention in a LoRA layer’s plan (softcapped, bf16)', () => {
  const S = 100;
  const O = 10;
  const saves = { norm: 0, norms: 0, attn: [], mlp: 0, mlps: 0, eager: { scores: S, output: O, softcap: true, upcast: true } };
  it('scores, · scaling, / softcap, tanh (saved), · softcap, + mask, fp32 upcast, fp32 softmax (saved), bf16 copy (saved), PV output, its contiguous copy', () => {
    // saved: tanh S + softmax 2S + its bf16 copy S = 4S
    // the `+ mask` sum goes once `.to(query.dtype)` has assigned its name (after the bf16 copy);
    // then the MLP: its product, here 0 B, made and freed around down_proj
    expect(signed(loraLayerPlan([], 4 * S, saves, true)).slice(0, 19)).toEqual([S, S, -S, S, -S, S, -S, S, S, -S, 2 * S, 2 * S, -2 * S, S, -S, O, O, -O, -O]);
  });
  it('a checkpointed forward makes the same tensors and keeps none', () => {
    const ev = loraLayerPlan([], 0, saves, false);
    expect(planSaved(ev)).toBe(0);
    expect(signed(ev).reduce((a, b) => a + b, 0)).toBe(0);
  });
  it('fp16 softmax takes aten’s half_to_float kernel: no upcast copy', () => {
    const ev = signed(loraLayerPlan([], 4 * S, { ...saves, eager: { ...saves.eager, upcast: false } }, true));
    expect(ev.filter((x) => x === 2 * S)).toEqual([2 * S]);
  });
});
