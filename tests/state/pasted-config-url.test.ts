/**
 * A pasted config.json survives the share link: the architecture keys that change an estimate —
 * here GPT-J-6B's (EleutherAI/gpt-j-6b config.json: one LayerNorm per block, `gelu_new`,
 * `resid_pdrop` 0.0) — go into the URL and come back, so a reload prices the same model.
 */
import { describe, expect, it } from 'vitest';
import { decodeUrl, encodeUrl } from '../../src/state/url-codec';
import { defaultScenario } from '../../src/core/scenario/schema';
import { parseHfConfig } from '../../src/core/model/config';
import { estimate } from '../../src/core/estimate';
import '../../src/core/training/builders';

const GPTJ_6B = {
  model_type: 'gptj',
  n_embd: 4096,
  n_layer: 28,
  n_head: 16,
  rotary_dim: 64,
  n_positions: 2048,
  vocab_size: 50400,
  activation_function: 'gelu_new',
  resid_pdrop: 0.0,
  tie_word_embeddings: false,
};

describe('a pasted config in the share link', () => {
  it('GPT-J-6B keeps its one norm per layer, composed GELU and residual dropout off through encode / decode, and its LoRA estimate', () => {
    const arch = parseHfConfig(GPTJ_6B);
    if (!arch.ok) throw new Error(JSON.stringify(arch.errors));
    expect(arch.value).toMatchObject({ normsPerLayer: 1, mlpAct: 'tanh-gelu', residDropout: false });
    const s = { ...defaultScenario(), mode: 'training' as const, method: 'lora' as const, model: 'custom', arch: arch.value, seq: 1024, batch: 2 };
    const back = decodeUrl(encodeUrl(s));
    expect(back.scenario.arch).toMatchObject({ normsPerLayer: 1, mlpAct: 'tanh-gelu', residDropout: false });
    const a = estimate(s);
    const b = estimate(back.scenario);
    if (!a.ok || !b.ok) throw new Error('estimate failed');
    expect(b.value.allocatedBytes).toBe(a.value.allocatedBytes);
  });
});
