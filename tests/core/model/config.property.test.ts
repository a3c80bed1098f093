import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parseHfConfig } from '../../../src/core/model/config';
import { countParams } from '../../../src/core/model/params';
import type { ModelArch, Result } from '../../../src/core/types';

/** Every number anywhere in a value is finite (no NaN / Infinity). */
function allFinite(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(allFinite);
  if (v && typeof v === 'object') return Object.values(v).every(allFinite);
  return true;
}

function wellFormed(r: Result<ModelArch>): void {
  if (r.ok) {
    expect(allFinite(r.value)).toBe(true);
    const p = countParams(r.value);
    expect(allFinite(p)).toBe(true);
    expect(p.total).toBeGreaterThan(0);
    expect(p.active).toBeLessThanOrEqual(p.total);
  } else {
    expect(r.errors.length).toBeGreaterThan(0);
    for (const e of r.errors) {
      expect(typeof e.key).toBe('string');
      expect(e.message.startsWith(e.key) || e.message.startsWith('missing')).toBe(true);
    }
  }
}

// Keys the parser reads, so random objects exercise real branches instead of only "missing".
const KEYS = [
  'model_type',
  'hidden_size',
  'n_embd',
  'd_model',
  'num_hidden_layers',
  'n_layer',
  'num_layers',
  'num_attention_heads',
  'n_head',
  'num_heads',
  'num_key_value_heads',
  'multi_query',
  'head_dim',
  'd_kv',
  'intermediate_size',
  'n_inner',
  'd_ff',
  'vocab_size',
  'tie_word_embeddings',
  'attention_bias',
  'mlp_bias',
  'hidden_act',
  'num_local_experts',
  'n_routed_experts',
  'num_experts',
  'num_experts_per_tok',
  'moe_intermediate_size',
  'n_shared_experts',
  'shared_expert_intermediate_size',
  'first_k_dense_replace',
  'moe_layer_freq',
  'decoder_sparse_step',
  'mlp_only_layers',
  'q_lora_rank',
  'kv_lora_rank',
  'qk_nope_head_dim',
  'qk_rope_head_dim',
  'v_head_dim',
  'sliding_window',
  'use_sliding_window',
  'layer_types',
  'sliding_window_pattern',
  'max_window_layers',
  'n_positions',
  'max_position_embeddings',
  'type_vocab_size',
  'num_decoder_layers',
  'feed_forward_proj',
  'text_config',
  'new_decoder_architecture',
  'parallel_attn',
  'bias',
];
const FAMILIES = ['llama', 'qwen2', 'qwen3_moe', 'gemma2', 'gemma3_text', 'gpt2', 'bert', 't5', 'falcon', 'deepseek_v3', 'mixtral', 'weird'];

const value = fc.oneof(
  fc.integer({ min: -4, max: 70000 }),
  fc.constantFrom(0, 1, 2, 8, 64, 128, 4096, 2 ** 31, 2 ** 53, -1, 0.5, 1e308),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...FAMILIES, 'silu', 'gelu', 'gated-gelu', 'sliding_attention'),
  fc.string(),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant('sliding_attention'))),
);
const configLike = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 25 });
// A valid core plus random extra fields: most of these parse, so ok values get checked too.
const nearlyValid = fc
  .record({
    model_type: fc.constantFrom(...FAMILIES),
    hidden_size: fc.constantFrom(64, 128, 896, 4096),
    num_hidden_layers: fc.integer({ min: 1, max: 100 }),
    num_attention_heads: fc.constantFrom(1, 2, 8, 16),
    vocab_size: fc.integer({ min: 1, max: 300000 }),
  })
  .chain((core) => configLike.map((extra) => ({ ...extra, ...core })));

describe('parseHfConfig never throws and never yields NaN', () => {
  test('any JSON value (1,000 runs)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => wellFormed(parseHfConfig(v))),
      { numRuns: 1000 },
    );
  });

  test('any string, as JSON text (1,000 runs)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (s) => wellFormed(parseHfConfig(s))),
      { numRuns: 1000 },
    );
  });

  test('config-like objects with known keys and hostile values (2,000 runs)', () => {
    fc.assert(
      fc.property(configLike, (c) => wellFormed(parseHfConfig(c))),
      { numRuns: 2000 },
    );
  });

  test('nearly valid configs (2,000 runs), some of them ok', () => {
    let oks = 0;
    fc.assert(
      fc.property(nearlyValid, (c) => {
        const r = parseHfConfig(c);
        if (r.ok) oks++;
        wellFormed(r);
      }),
      { numRuns: 2000 },
    );
    expect(oks).toBeGreaterThan(100);
  });

  test('errors only name keys the config has, or the canonical spelling of a missing one', () => {
    fc.assert(
      fc.property(configLike, (c) => {
        const r = parseHfConfig(c);
        if (!r.ok) {
          for (const e of r.errors) {
            const known = e.key in c || e.code === 'missing' || e.key === 'mlp_only_layers' || e.key === 'head_dim';
            expect(known).toBe(true);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
