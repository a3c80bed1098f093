/**
 * What one prompt pass holds at its attention and MLP, by kernel and dtype, worked out by hand from
 * the source each rule cites (src/core/inference/transient.ts, src/core/sdpa.ts), for published
 * configs. bf16 unless said, batch 1, one GPU.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { eagerScoreBytes, familyEagerScoreBytes, forwardTransient, fp16Activations } from '../../../src/core/inference/transient';
import { eagerScorePieces, scorePieces } from '../../../src/core/inference/score-pieces';
import { archOf } from '../model/remote-configs';
import { evaluate } from '../../../src/core/formula';
import { sdpaRunsMath } from '../../../src/core/sdpa';
import { findPreset } from '../../../src/core/model/presets';
import type { Estimate, ModelArch, Scenario } from '../../../src/core/types';

function run(p: Partial<Scenario>): Estimate {
  const r = estimate({ ...defaultScenario(), mode: 'inference', engine: 'transformers', weights: 'bf16', kv: 'bf16', attn: 'sdpa', batch: 1, gen: 0, ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const activations = (e: Estimate) => e.terms.find((t) => t.id === 'activations')?.bytes;

describe("eager softmax(scores, dtype=float32): ATen's SoftMax.cpp fuses the upcast for Half only", () => {
  it('bytes per score element: bf16 2 + 4 (the toType copy) + 4 (the result); fp16 2 + 4 + 2 (the result and its copy back); fp32 4 + 4', () => {
    expect(evaluate(eagerScoreBytes(2, false))).toBe(10);
    expect(evaluate(eagerScoreBytes(2, true))).toBe(8);
    expect(evaluate(eagerScoreBytes(4, false))).toBe(8);
  });
  it('fp16 activations: fp16 weights and the fp16-only GPTQ / AWQ kernels; bf16 and bitsandbytes formats are bf16', () => {
    expect(['fp16', 'gptq-int4', 'awq-int4', 'bf16', 'nf4'].map((w) => fp16Activations(w as Scenario['weights']))).toEqual([true, true, true, false, false]);
  });
  it('Llama-3.2-1B eager at 4,096 tokens: bf16 holds one 2-byte copy of the 32 × 4,096² scores more than fp16', () => {
    const bf16 = run({ model: 'meta-llama/Llama-3.2-1B', attn: 'eager', prompt: 4096 });
    const fp16 = run({ model: 'meta-llama/Llama-3.2-1B', attn: 'eager', prompt: 4096, weights: 'fp16', kv: 'fp16' });
    // our H200 runs n003 / n006 (src/validation/fixtures/measured-remote.json) peaked 1,074,061,312 B apart
    expect(activations(bf16)! - activations(fp16)!).toBe(32 * 4096 * 4096 * 2);
  });
});

describe("eager attention's probabilities at the MLP (the decoder layer's `hidden_states, _ = self.self_attn(...)`)", () => {
  it('Llama-3.2-1B at 128 tokens peaks at the MLP, where eager also holds 32 × 128² bf16 probabilities and the 128² causal mask', () => {
    const at = (attn: Scenario['attn']) => forwardTransient(findPreset('meta-llama/Llama-3.2-1B')!.arch, 128, 128, 1, 2, attn, 1, 1);
    expect([at('eager').kind, at('sdpa').kind]).toEqual(['mlp', 'mlp']);
    expect(at('eager').bytes - at('sdpa').bytes).toBe(32 * 128 * 128 * 2 + 128 * 128 * 2);
  });
  it("Falcon-7B: FalconModel's `outputs` holds the previous block's probabilities there too", () => {
    const at = (attn: Scenario['attn']) => forwardTransient(findPreset('tiiuae/falcon-7b')!.arch, 64, 64, 1, 2, attn, 1, 1);
    expect([at('eager').kind, at('flash').kind]).toEqual(['mlp', 'mlp']);
    expect(at('eager').bytes - at('flash').bytes).toBe(2 * 71 * 64 * 64 * 2 + 64 * 64 * 2);
  });
});

describe('what an eager call holds beside its scores (transformers eager_attention_forward)', () => {
  it('Qwen2.5-1.5B at 2,048 tokens: 3 hidden rows, cos/sin, the rotated q, K and V repeated from 2 to 12 heads, scores, the mask', () => {
    const parts = [
      3 * 2048 * 1536 * 2, // inputs_embeds, the layer input, the normed input: 18,874,368
      2 * 2048 * 128 * 2, // cos and sin: 1,048,576
      2048 * 12 * 128 * 2, // q after RoPE: 6,291,456
      2 * 2048 * 12 * 128 * 2, // repeat_kv's K and V: 12,582,912
      12 * 2048 * 2048 * 10, // bf16 sum, its fp32 copy, the fp32 softmax: 503,316,480
      2048 * 2048 * 2, // the additive causal mask: 8,388,608
    ];
    // our H200 run n004 measured 3,732,239,360 B in all; the estimate is within 0.05 %
    expect(activations(run({ model: 'Qwen/Qwen2.5-1.5B', attn: 'eager', prompt: 2048 }))).toBe(parts.reduce((a, b) => a + b, 0));
  });
});

describe("a fused gate-up projection's output stays referenced through act and product (4·s·f)", () => {
  it('Phi-3-mini at 2,048 tokens: 4 hidden rows + 4·s·8192·2 + rotary cos/sin + the sliding-window bool mask', () => {
    // h 3072, f 8192, head_dim 96: 4·2048·3072·2 = 50,331,648; 4·2048·8192·2 = 134,217,728; 2·2048·96·2 = 786,432;
    // sliding_window 2,047 < 2,048 keys: SDPA gets a (1, 1, 2048, 2048) bool mask, 4,194,304
    // (our H200 run n000 measured 8,670,897,152 B in all, the estimate's figure to 0.01 %)
    expect(activations(run({ model: 'microsoft/Phi-3-mini-4k-instruct', prompt: 2048 }))).toBe(185_335_808 + 4_194_304);
  });
  it("vLLM's SiluAndMul reads the fused output and writes one f: 3·s·f there", () => {
    const arch = findPreset('microsoft/Phi-3-mini-4k-instruct')!.arch;
    const at = (fusedMlpHeld: boolean) => forwardTransient(arch, 1024, 1024, 1, 2, 'flash', 1, 0, { hiddenRows: 3, fusedMlpHeld });
    expect(at(true).bytes - at(false).bytes).toBe(1024 * 8192 * 2);
    expect(at(false).bytes).toBe(3 * 1024 * 3072 * 2 + 3 * 1024 * 8192 * 2);
  });
});

describe("multi-query Falcon hands SDPA one K/V head: PyTorch's math kernel", () => {
  it('Falcon-7B (g = 1) runs the math kernel; Falcon-40B (K/V expanded to every head by its own code) does not', () => {
    expect(sdpaRunsMath(findPreset('tiiuae/falcon-7b')!.arch)).toBe(true);
    expect(sdpaRunsMath(findPreset('tiiuae/falcon-40b')!.arch)).toBe(false);
    expect(sdpaRunsMath(findPreset('meta-llama/Llama-3.1-8B')!.arch)).toBe(false);
  });
  it("Falcon-7B at 2,048 tokens: fp32 scores, fp32 softmax and the bool -inf test, 71 × 2,048² × 9 B, beside what the attention and the kernel's C++ locals hold", () => {
    const parts = [
      71 * 2048 * 2048 * 9, // our trace of run n005: 2 × 1,191,182,336 + 297,795,584
      3 * 2048 * 4544 * 2, // inputs_embeds, the block input, the normed input: 55,836,672
      2 * 2048 * 64 * 2, // FalconModel.forward's rotary cos and sin: 524,288
      2048 * 71 * 64 * 2, // the rotated q: 18,612,224
      2048 * 73 * 64 * 2, // the fused query_key_value output: 19,136,512
      2 * 2048 * 4544 * 4, // the kernel's fp32 q and q · scale: 74,448,896
      3 * 2048 * 64 * 4, // its fp32 k, kᵀ · scale and v (one head): 1,572,864
      2048 * 2048 * 4, // is_causal's tril turned into an fp32 additive mask: 16,777,216
    ];
    expect(activations(run({ model: 'tiiuae/falcon-7b', prompt: 2048 }))).toBe(parts.reduce((a, b) => a + b, 0));
  });
});

describe("Falcon's own eager path (modeling_falcon.py): softmax in the model dtype, the previous block's probabilities held", () => {
  it('Falcon-7B eager at 2,048 tokens: 4 score tensors of 71 × 2,048² bf16, no repeat_kv copies, cos / sin held', () => {
    const parts = [
      3 * 2048 * 4544 * 2, // inputs_embeds, the block input, the normed input: 55,836,672
      2 * 2048 * 64 * 2, // FalconRotaryEmbedding's cos and sin: 524,288
      2048 * 71 * 64 * 2, // q after RoPE: 18,612,224
      2048 * (71 + 2) * 64 * 2, // the fused query_key_value output, held by its local: 19,136,512
      // QKᵀ, `+ attention_mask`, softmax(dtype=hidden_states.dtype), and the previous block's
      // probabilities in FalconModel.forward's `outputs`: 4 · 595,591,168
      4 * 71 * 2048 * 2048 * 2,
      2048 * 2048 * 2, // the additive causal mask: 8,388,608
    ];
    // our H200 run n007 (measured-remote.json) traced four blocks of 595,591,168 B at its peak
    expect(activations(run({ model: 'tiiuae/falcon-7b', attn: 'eager', prompt: 2048 }))).toBe(parts.reduce((a, b) => a + b, 0));
  });
  it('the replay allocates those scores as the tensors they are (Transient.scores, score-pieces.ts), in the order the code makes them', () => {
    const t = forwardTransient(findPreset('tiiuae/falcon-7b')!.arch, 2048, 2048, 1, 2, 'eager', 1, 1);
    expect(t.kind).toBe('attention-scores');
    expect(scorePieces(t.scores!)).toEqual([{ size: 71 * 2048 * 2048 * 2, max: 4 }]);
    // eager_attention_forward in bf16: the masked sum, then softmax's fp32 copy and fp32 result (32 heads, 2,048²)
    const llama = forwardTransient(findPreset('meta-llama/Llama-3.2-1B')!.arch, 2048, 2048, 1, 2, 'eager', 1, 1);
    expect(scorePieces(llama.scores!)).toEqual([
      { size: 32 * 2048 * 2048 * 2, max: 1 },
      { size: 32 * 2048 * 2048 * 4, max: 2 },
    ]);
  });
});

describe('the other files with their own eager attention (transformers 5.x modeling_<family>.py)', () => {
  const scoreBytesPerElement = (arch: ModelArch, e: number, fp16 = false) => evaluate(familyEagerScoreBytes(arch, e, fp16));
  it("GPT-2's eager_attention_forward: softmax(attn_weights, dim=-1) without a dtype holds its bf16 input and output, 4 B per element", () => {
    expect(scoreBytesPerElement(findPreset('openai-community/gpt2')!.arch, 2)).toBe(2 * 2);
  });
  // EleutherAI/gpt-j-6b config.json: n_embd 4096, n_head 16, n_layer 28, rotary_dim 64
  const gptj = archOf({ model_type: 'gptj', n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64, vocab_size: 50400, activation_function: 'gelu_new', layer_norm_epsilon: 1e-5 });
  it("GPT-J's _attn: q and k cast to fp32, fp32 scores and softmax (8 B), and the previous block's bf16 probabilities GPTJModel's `outputs` holds (2 B)", () => {
    expect(scoreBytesPerElement(gptj, 2)).toBe(4 + 4 + 2);
    expect(eagerScorePieces('gptj', 2, false)).toEqual([
      { bytes: 2, count: 1 },
      { bytes: 4, count: 2 },
    ]);
  });
  // bigscience/bloom-7b1 config.json: hidden_size 4096, n_head 32, n_layer 30
  const bloom = archOf({ model_type: 'bloom', hidden_size: 4096, n_head: 32, n_layer: 30, vocab_size: 250880, layer_norm_epsilon: 1e-5 });
  it("Bloom: the baddbmm scores still bound to `attention_scores`, the masked sum, softmax's fp32 copy and result, the previous block's probabilities: 14 B in bf16", () => {
    expect(scoreBytesPerElement(bloom, 2)).toBe(2 + 2 + 4 + 4 + 2);
    // fp16: the fused upcast writes the fp32 result and its 16-bit copy (no fp32 copy of the input)
    expect(scoreBytesPerElement(bloom, 2, true)).toBe(2 + 2 + 4 + 2 + 2);
  });
  it("GPT-J-6B eager at 2,048 tokens: 16 heads × 2,048² × 10 B beside 3 hidden rows, q, and _attn's fp32 q and K copies", () => {
    const t = forwardTransient(gptj, 2048, 2048, 1, 2, 'eager', 1, 1);
    const parts = [
      3 * 2048 * 4096 * 2, // hidden rows: 50,331,648
      2048 * 4096 * 2, // the caller's 16-bit q: 16,777,216
      2 * 2048 * 4096 * 4, // query.to(torch.float32), key.to(torch.float32): 67,108,864
      16 * 2048 * 2048 * 10, // fp32 scores and softmax, the previous block's bf16 probabilities: 671,088,640
      2048 * 2048 * 2, // the additive causal mask: 8,388,608
    ];
    expect([t.kind, t.bytes]).toEqual(['attention-scores', parts.reduce((a, b) => a + b, 0)]);
  });
  it('every family: the pieces add up to the bytes per element', () => {
    for (const arch of [gptj, bloom, findPreset('tiiuae/falcon-7b')!.arch, findPreset('openai-community/gpt2')!.arch, findPreset('meta-llama/Llama-3.2-1B')!.arch])
      for (const [e, fp16] of [
        [2, false],
        [2, true],
        [4, false],
      ] as const) {
        const sum = eagerScorePieces(arch.family, e, fp16).reduce((a, p) => a + p.bytes * p.count, 0);
        expect(sum, `${arch.family} e=${e} fp16=${fp16}`).toBe(scoreBytesPerElement(arch, e, fp16));
      }
  });
  it('Bloom-7b1 eager at 2,048 tokens: 32 heads × 2,048² × 14 B beside 3 hidden rows, its fused qkv output and q, and the [1, 1, s, s] mask', () => {
    const t = forwardTransient(bloom, 2048, 2048, 1, 2, 'eager', 1, 1);
    const parts = [
      3 * 2048 * 4096 * 2, // hidden rows: 50,331,648
      2048 * 4096 * 2, // q: 16,777,216
      2048 * 3 * 4096 * 2, // the fused query_key_value output: 50,331,648
      32 * 2048 * 2048 * 14, // the score tensors: 1,879,048,192
      2048 * 2048 * 2, // the additive causal mask: 8,388,608
    ];
    expect([t.kind, t.bytes]).toEqual(['attention-scores', parts.reduce((a, b) => a + b, 0)]);
  });
});

describe('files with no SDPA path run eager (families.ts attnClasses, remote-families.ts ownFileAttn)', () => {
  const bloom = archOf({ model_type: 'bloom', hidden_size: 4096, n_head: 32, n_layer: 30, vocab_size: 250880, layer_norm_epsilon: 1e-5 });
  const gptj = archOf({ model_type: 'gptj', n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64, vocab_size: 50400 });
  const custom = (arch: ModelArch, p: Partial<Scenario>) => run({ model: 'custom', arch, gpu: '', ...p });
  it('Bloom generate with attn=sdpa counts the eager scores and says why; attn=eager says nothing', () => {
    const sdpa = custom(bloom, { prompt: 2048 });
    const eager = custom(bloom, { prompt: 2048, attn: 'eager' });
    expect(activations(sdpa)).toBe(activations(eager));
    // 32 × 2,048² × 14 B of scores: the set is the attention's, not the MLP's
    expect(activations(sdpa)!).toBeGreaterThan(32 * 2048 * 2048 * 14);
    expect(sdpa.notes.find((n) => n.code === 'model.own-attn')?.params).toEqual({ runs: 'eager', attn: 'sdpa' });
    expect(eager.notes.map((n) => n.code)).not.toContain('model.own-attn');
  });
  it('GPT-J keeps flash-attention-2 (GPTJ_ATTENTION_CLASSES) and trains eager when SDPA is asked for', () => {
    expect(custom(gptj, { prompt: 2048, attn: 'flash' }).notes.map((n) => n.code)).not.toContain('model.own-attn');
    const r = estimate({ ...defaultScenario(), mode: 'training', method: 'lora', model: 'custom', arch: gptj, gpu: '', attn: 'sdpa', seq: 1024, batch: 1 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value.notes.find((n) => n.code === 'model.own-attn')?.params).toEqual({ runs: 'eager', attn: 'sdpa' });
  });
  it('T5 (google-t5/t5-base) has only T5Attention: attn=sdpa is estimated eager, with the note', () => {
    const sdpa = run({ model: 'google-t5/t5-base', prompt: 2048, gen: 16 });
    expect(sdpa.allocatedBytes).toBe(run({ model: 'google-t5/t5-base', prompt: 2048, gen: 16, attn: 'eager' }).allocatedBytes);
    expect(sdpa.notes.map((n) => n.code)).toContain('model.own-attn');
  });
  it('Llama keeps SDPA', () => {
    expect(run({ model: 'meta-llama/Llama-3.2-1B', prompt: 2048 }).notes.map((n) => n.code)).not.toContain('model.own-attn');
  });
});
