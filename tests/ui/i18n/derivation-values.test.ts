/**
 * Every worded value under a term's formula has its Chinese (values-zh.ts), for every term the
 * estimator builds over the formula walk's scenarios (tests/core/formula/scenario-walk.ts), the
 * replayed training estimates included; and the table holds nothing the estimator no longer says.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { estimateWithReplay } from '../../../src/core/timeline';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Result, Scenario } from '../../../src/core/types';
import { VALUE_ZH, valueZh } from '../../../src/ui/i18n/values-zh';
import { loadZh } from '../../../src/ui/i18n/zh-loader';
import { valueText } from '../../../src/ui/calculator/derivation-panel';
import { INFERENCE, TRAINING } from '../../core/formula/scenario-walk';

/** Text with words in it (two words in a row), not a lone option value such as 'gptq-int4' or 'q,k,v'. */
const worded = (v: string): boolean => v.includes(' ') && /(?:^|\W)[A-Z]{2,}[ ,;:]+[A-Z(]/i.test(v);

function said(): Set<string> {
  const out = new Set<string>();
  const add = (r: Result<Estimate>) => {
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    for (const t of r.value.terms) for (const v of Object.values(t.derivation.values)) if (typeof v === 'string' && worded(v)) out.add(v);
  };
  const s = (o: Partial<Scenario>, mode: Scenario['mode']): Scenario => ({ ...defaultScenario(), mode, ...o });
  for (const o of INFERENCE) add(estimate(s(o, 'inference')));
  for (const o of TRAINING) add(estimate(s(o, 'training')));
  for (const lengths of ['fixed', 'varied'] as const) add(estimateWithReplay(s({ model: 'meta-llama/Llama-3.2-1B', lengths, seq: 2048, batch: 4 }, 'training')));
  return out;
}

describe('derivation values in Chinese', () => {
  const values = said();

  it('every worded value the estimator writes has its Chinese, and every entry is still written', () => {
    expect(values.size).toBeGreaterThan(30);
    expect([...values].filter((v) => !valueZh(v))).toEqual([]);
    // an entry is written when a value is that entry, or that entry followed by notes (VALUE_SUFFIX_ZH)
    const used = new Set([...values].map((v) => valueZh(v)?.key));
    expect(Object.keys(VALUE_ZH).filter((k) => !used.has(k))).toEqual([]);
    for (const zh of Object.values(VALUE_ZH)) expect(zh).toMatch(/[\u4e00-\u9fff]/);
  });

  it('the panel shows the Chinese once the tables are in, and symbols and numbers as written', async () => {
    await loadZh();
    expect(valueText('two steps through the caching-allocator model', 'zh')).toBe('两步经缓存分配器模型回放');
    expect(valueText('two steps through the caching-allocator model', 'en')).toBe('two steps through the caching-allocator model');
    expect(valueText('gptq-int4', 'zh')).toBe('gptq-int4');
    // a note the core appends is translated on its own: gelu_new without autocast (3e = 6 B) has no entry of its own
    const bf16 =
      's·b·(2·(e_res + e)·h + e·c·h + e·(2ad + kv + 2f)/t + 2h) [+ a·s²·b·(e_sm + 1 + e)/t eager] [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a), m = share of masked layers; c = AMP cast copies';
    expect(valueText(`${bf16} [+ 6·f/t: the composed MLP activation's intermediates]`, 'zh')).toBe(`${VALUE_ZH[bf16]} [+ 6·f/t：由 Python 算子组合的 MLP 激活函数保存的中间张量]`);
  });
});
