/**
 * Encoder-only embedding models (BGE, E5, GTE) as transformers runs them (modeling_bert.py
 * BertModel, modeling_xlm_roberta.py): parameters counted by hand from config.json against the
 * published sizes, one forward with no KV cache and no LM head, generation keys warned.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { countParams } from '../../../src/core/model/params';
import { findPreset } from '../../../src/core/model/presets';
import { defaultScenario, parseScenario } from '../../../src/core/scenario';
import type { Scenario } from '../../../src/core/types';

const total = (id: string) => countParams(findPreset(id)!.arch).total;

/** One BERT / XLM-R layer of width h and MLP f: q/k/v/o and fc1/fc2 with biases, two LayerNorms. */
const layer = (h: number, f: number) => 4 * (h * h + h) + h * f + f + f * h + h + 4 * h;
/** Embeddings (word + position + token type) and their LayerNorm, L layers, BertPooler. */
const encoder = (h: number, f: number, L: number, vocab: number, positions: number, types: number) => h * (vocab + positions + types) + 2 * h + L * layer(h, f) + h * h + h;

describe('published parameter counts, from the configs by hand', () => {
  it('bge-large-en-v1.5 and gte-large: BERT-large, 335M', () => {
    const n = encoder(1024, 4096, 24, 30522, 512, 2);
    expect(n).toBe(335_141_888);
    expect(total('BAAI/bge-large-en-v1.5')).toBe(n);
    expect(total('thenlper/gte-large')).toBe(n);
  });

  it('bge-base-en-v1.5: BERT-base, 109M', () => {
    expect(total('BAAI/bge-base-en-v1.5')).toBe(encoder(768, 3072, 12, 30522, 512, 2));
    expect(Math.round(total('BAAI/bge-base-en-v1.5') / 1e6)).toBe(109);
  });

  it('bge-m3: XLM-R large with 8,194 positions and one token type, 568M', () => {
    expect(total('BAAI/bge-m3')).toBe(encoder(1024, 4096, 24, 250002, 8194, 1));
    expect(Math.round(total('BAAI/bge-m3') / 1e6)).toBe(568);
  });

  it('multilingual-e5-large: XLM-R large with 514 positions, 560M', () => {
    expect(Math.round(total('intfloat/multilingual-e5-large') / 1e6)).toBe(560);
  });
});

function run(p: Partial<Scenario>) {
  const r = estimate({ ...defaultScenario(), model: 'BAAI/bge-m3', mode: 'inference', engine: 'transformers', weights: 'bf16', ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const term = (p: Partial<Scenario>, id: string) => run(p).terms.find((t) => t.id === id)?.bytes;

describe('inference: one forward over batch × tokens', () => {
  it('holds no KV cache and no vocabulary logits, whatever gen says', () => {
    expect(term({ prompt: 512, gen: 256 }, 'kv-cache')).toBeUndefined();
    expect(term({ prompt: 512 }, 'logits')).toBeUndefined();
    expect(run({ prompt: 512, gen: 256 }).allocatedBytes).toBe(run({ prompt: 512, gen: 0 }).allocatedBytes);
  });

  it('SDPA: the MLP moment, 4 hidden rows + fc1 output and GELU, bigger than the pooled output', () => {
    // b 8, s 8,192, h 1,024, f 4,096, bf16: 4·s·b·h·2 + 2·s·b·f·2
    expect(term({ prompt: 8192, batch: 8, attn: 'sdpa' }, 'activations')).toBe(4 * 8192 * 8 * 1024 * 2 + 2 * 8192 * 8 * 4096 * 2);
  });

  it('eager: the score matrix of 16 heads grows with s²', () => {
    expect(term({ prompt: 512, batch: 8, attn: 'eager' }, 'activations')).toBeGreaterThanOrEqual(8 * 16 * 512 * 512 * (2 * 2 + 4));
  });

  it('a one-token input ends at the pooled output: last hidden state b·s·h + pooler dense and tanh 2·b·h', () => {
    // s = 1, b = 1: MLP moment 4·1024·2 + 2·4096·2 = 24,576 > end 1024·2 + 2·1024·2 = 6,144
    expect(term({ prompt: 1, batch: 1 }, 'activations')).toBe(24_576);
  });
});

describe('generation keys and engines', () => {
  it('gen, kv and logits-path warn for an embedding model', () => {
    const p = parseScenario({ model: 'BAAI/bge-m3', gen: '128', kv: 'fp8', 'logits-path': 'current' });
    expect(p.warnings.filter((w) => w.code === 'unused-for-model').map((w) => w.key)).toEqual(['kv', 'gen', 'logits-path']);
    expect(parseScenario({ model: 'meta-llama/Llama-2-7b-hf', gen: '128' }).warnings).toEqual([]);
  });

  it("the context check counts the input only: bge-m3's 8,194 positions hold 8,192 tokens and any gen", () => {
    expect(parseScenario({ model: 'BAAI/bge-m3', prompt: '8192' }).warnings).toEqual([]);
    expect(parseScenario({ model: 'BAAI/bge-m3', prompt: '8195' }).warnings.map((w) => w.code)).toEqual(['exceeds-context']);
  });

  it('vLLM and llama.cpp are refused: the engine falls back to transformers', () => {
    const p = parseScenario({ model: 'BAAI/bge-large-en-v1.5', engine: 'vllm' });
    expect(p.errors.map((e) => [e.key, e.code, e.params?.with])).toEqual([['engine', 'incompatible', 'model']]);
    expect(p.scenario.engine).toBe('transformers');
    const r = estimate({ ...defaultScenario(), model: 'BAAI/bge-large-en-v1.5', engine: 'llama.cpp', weights: 'gguf-q8_0' });
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toContain('encoder-engine');
  });
});

describe('training: the existing path, with a task head instead of vocabulary logits', () => {
  it('fine-tunes bge-base with AdamW: 16 B of states per parameter, fp32 logits of 2 labels', () => {
    const r = estimate({ ...defaultScenario(), model: 'BAAI/bge-base-en-v1.5', mode: 'training', method: 'full', precision: 'amp-bf16', batch: 32, seq: 512 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const t = (id: string) => r.value.terms.find((x) => x.id === id)?.bytes;
    const P = 109_482_240;
    // AMP: bf16 working weights 2 B + fp32 master 4 B, fp32 gradients 4 B, AdamW two fp32 states 8 B
    expect((t('weights') ?? 0) + (t('master-weights') ?? 0) + (t('gradients') ?? 0) + (t('optimizer') ?? 0)).toBe(P * 18);
    expect(t('logits')).toBe(32 * 2 * 4);
  });
});
