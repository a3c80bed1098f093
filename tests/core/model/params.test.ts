import { describe, expect, test } from 'vitest';
import { parseHfConfig } from '../../../src/core/model/config';
import { countParams } from '../../../src/core/model/params';
import { findPreset } from '../../../src/core/model/presets';
import type { ModelArch } from '../../../src/core/types';

import { CATALOGUE } from './catalogue';

function arch(id: string): ModelArch {
  const p = findPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return p.arch;
}

// Published totals: keras-hub *_presets.py exact 'params' (docs/reference/formulas.md §1.1/§1.2 tables).
describe('published parameter totals', () => {
  test.each([
    ['meta-llama/Llama-2-7b-hf', 6_738_415_616],
    ['meta-llama/Meta-Llama-3-8B', 8_030_261_248],
    ['mistralai/Mistral-7B-v0.1', 7_241_732_096],
    ['mistralai/Mixtral-8x7B-v0.1', 46_702_792_704],
    ['openai-community/gpt2', 124_439_808],
  ])('%s = %i', (id, total) => {
    expect(countParams(arch(id)).total).toBe(total);
  });

  test('Mixtral-8x7B active = 12,879,925,248 (2 of 8 experts; docs/reference/formulas.md §1.2)', () => {
    expect(countParams(arch('mistralai/Mixtral-8x7B-v0.1')).active).toBe(12_879_925_248);
  });

  test('DeepSeek-V3: 671.0B total, ≈37B active (model card "671B total, 37B activated")', () => {
    const p = countParams(arch('deepseek-ai/DeepSeek-V3'));
    expect(p.total).toBe(671_026_419_200);
    expect(p.active / 1e9).toBeGreaterThan(36.5);
    expect(p.active / 1e9).toBeLessThan(38);
  });

  // Rows of data/models.json (copied by tools/gen-presets.mjs) whose exact published
  // count exists and was reproduced by the reference's own computation (computed_matches_exact).
  const exact = CATALOGUE.filter((r) => r.publishedParams !== null && r.exactChecked);
  test('the loop covers most of models.json', () => expect(exact.length).toBeGreaterThanOrEqual(35));
  test.each(exact.map((r) => [r.id, r] as const))('models.json %s matches its official exact count', (_id, r) => {
    const parsed = parseHfConfig(r.config);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(countParams(parsed.value).total).toBe(r.publishedParams);
  });

  // keras-hub gemma3_{4b,12b,27b} counts include the SigLIP vision tower and projector.
  test.each([
    ['google/gemma-3-4b-pt', 4_299_915_632],
    ['google/gemma-3-12b-pt', 12_187_079_280],
    ['google/gemma-3-27b-pt', 27_432_062_576],
  ])('multimodal %s = %i with its vision tower', (id, total) => {
    expect(countParams(arch(id)).total).toBe(total);
  });
});

// Configs as published on the HF hub; totals as stated on the model cards (rounded there).
describe('MoE variants against their model cards', () => {
  test('Qwen1.5-MoE-A2.7B: shared expert with gate; "14.3B parameters in total and 2.7B activated"', () => {
    const r = parseHfConfig({
      model_type: 'qwen2_moe',
      hidden_size: 2048,
      intermediate_size: 5632,
      moe_intermediate_size: 1408,
      shared_expert_intermediate_size: 5632,
      num_experts: 60,
      num_experts_per_tok: 4,
      decoder_sparse_step: 1,
      num_hidden_layers: 24,
      num_attention_heads: 16,
      num_key_value_heads: 16,
      vocab_size: 151936,
      tie_word_embeddings: false,
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const p = countParams(r.value);
    expect(p.total / 1e9).toBeCloseTo(14.3, 1);
    expect(p.active / 1e9).toBeCloseTo(2.7, 1);
  });

  test('DeepSeek-V2-Lite: MLA without q compression, 1 dense + 26 MoE layers; "15.7B total parameters"', () => {
    const r = parseHfConfig({
      model_type: 'deepseek_v2',
      hidden_size: 2048,
      intermediate_size: 10944,
      moe_intermediate_size: 1408,
      num_hidden_layers: 27,
      num_attention_heads: 16,
      num_key_value_heads: 16,
      n_routed_experts: 64,
      n_shared_experts: 2,
      num_experts_per_tok: 6,
      first_k_dense_replace: 1,
      moe_layer_freq: 1,
      q_lora_rank: null,
      kv_lora_rank: 512,
      qk_nope_head_dim: 128,
      qk_rope_head_dim: 64,
      v_head_dim: 128,
      vocab_size: 102400,
      tie_word_embeddings: false,
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value.mla?.qLoraRank).toBeNull();
    expect(countParams(r.value).total / 1e9).toBeCloseTo(15.7, 1);
  });
});

describe('breakdown by role', () => {
  // docs/reference/formulas.md §1.1: "embedding 131,072,000 + LM head 131,072,000 + 32 layers 6,476,267,520 + final norm 4,096"
  test('Llama-2-7b roles', () => {
    const p = countParams(arch('meta-llama/Llama-2-7b-hf'));
    expect(p.embedding).toBe(32000 * 4096);
    expect(p.lmHead).toBe(32000 * 4096);
    expect(p.perLayer).toBe(202_383_360);
    expect(p.blockLinear).toBe(32 * (4 * 4096 ** 2 + 3 * 4096 * 11008));
    expect(p.other).toBe(32 * 2 * 4096 + 4096);
    expect(p.largestLinear).toBe(4096 * 11008);
    expect(p.embedding + p.lmHead + p.blockLinear + p.other).toBe(p.total);
  });

  test('tied embeddings have no separate head (Qwen2.5-0.5B)', () => {
    expect(countParams(arch('Qwen/Qwen2.5-0.5B')).lmHead).toBe(0);
  });

  test('MLA attention of DeepSeek-V3 is 187,107,328 per layer (docs/reference/formulas.md §1.3)', () => {
    const a = arch('deepseek-ai/DeepSeek-V3');
    const dense = { ...a, moe: undefined, mla: a.mla };
    const noMlp = countParams({ ...dense, ffn: 0, layers: 1, vocab: 1, tiedEmbeddings: true });
    // one layer minus its two RMSNorms, the 1-row embedding and the final norm
    expect(noMlp.total - 2 * 7168 - 7168 - 7168).toBe(187_107_328);
  });
});
