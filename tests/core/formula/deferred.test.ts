/**
 * Formulas made on demand (src/core/formula/derivation.ts): inside deferFormulas the builders
 * return numbers, and a derivation's formula is made by running the same code again when it is
 * first read, so it is the formula the eager builders make.
 */
import { describe, expect, it } from 'vitest';
import { add, deferFormulas, derive, evaluate, mul, sym, type Expr } from '../../../src/core/formula';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Derivation, Scenario } from '../../../src/core/types';

const SOURCE = { source: 'formulas.md §3.1', confidence: 'exact' as const };

/** HF DynamicCache of Llama-2-7b (L 32, g 32, d 128) for 3000 + 1096 tokens, 2 sequences, fp16. */
function kvCache(): { bytes: Expr; derivation: Derivation } {
  const e = mul(2, sym('L', 32), sym('g', 32), sym('d', 128), add(sym('s_in', 3000), sym('s_out', 1096)), sym('b', 2), sym('bytes_kv', 2));
  return { bytes: e, derivation: derive(e, SOURCE) };
}

describe('deferFormulas', () => {
  it('makes numbers, and the formula of the same code when it is read', () => {
    let runs = 0;
    const deferred = deferFormulas(() => {
      runs++;
      return kvCache();
    });
    // 2·L·g·d·(s_in + s_out)·b·bytes_kv = 4 GiB (formulas.md §3.1)
    expect(deferred.bytes).toBe(4 * 2 ** 30);
    expect(runs).toBe(1);
    expect(deferred.derivation.formula).toBe('2·L·g·d·(s_in + s_out)·b·bytes_kv');
    expect(deferred.derivation.values).toEqual({ L: 32, g: 32, d: 128, s_in: 3000, s_out: 1096, b: 2, bytes_kv: 2 });
    expect(runs).toBe(2);
    // read again: the tree is kept, the code is not run a third time
    expect(deferred.derivation.formula).toBe(kvCache().derivation.formula);
    expect(runs).toBe(2);
    expect(JSON.parse(JSON.stringify(deferred.derivation))).toEqual({ formula: '2·L·g·d·(s_in + s_out)·b·bytes_kv', values: deferred.derivation.values, ...SOURCE });
  });

  it('builds trees again outside a run', () => {
    deferFormulas(() => kvCache());
    expect(typeof kvCache().bytes).toBe('object');
    expect(evaluate(kvCache().bytes)).toBe(4 * 2 ** 30);
  });

  it('a run nested in another keeps its own derivations, in the outer run and in its re-run', () => {
    const outer = deferFormulas(() => {
      const first = derive(mul(sym('P', 6_738_415_616), sym('w', 2)), SOURCE);
      const inner = deferFormulas(() => derive(mul(sym('P', 6_738_415_616), sym('w', 4)), SOURCE));
      const last = derive(add(sym('x', 1), sym('y', 2)), SOURCE);
      return { first, inner, last };
    });
    expect(outer.last.formula).toBe('x + y');
    expect(outer.first.values).toEqual({ P: 6_738_415_616, w: 2 });
    expect(outer.inner.values).toEqual({ P: 6_738_415_616, w: 4 });
  });

  it('a run that makes different derivations when run again says so', () => {
    let n = 0;
    const d = deferFormulas(() => (n++ === 0 ? [derive(sym('a', 1), SOURCE), derive(sym('b', 2), SOURCE)] : [derive(sym('a', 1), SOURCE)]));
    expect(() => d[1].formula).toThrow(/made 1 derivations, not 2/);
  });

  it("an estimate's formulas are its own scenario's, read after other estimates ran", () => {
    const run = (model: string): Scenario => ({ ...defaultScenario(), model, prompt: 1000, gen: 0 });
    const a = estimate(run('meta-llama/Llama-2-7b-hf'));
    const b = estimate(run('meta-llama/Llama-3.1-70B'));
    if (!a.ok || !b.ok) throw new Error('estimate failed');
    const kv = (e: typeof a) => e.ok && e.value.terms.find((t) => t.id === 'kv-cache')!.derivation.values;
    // config.json num_hidden_layers: 32 (Llama-2-7b), 80 (Llama-3.1-70B)
    expect(kv(b)).toMatchObject({ L: 80 });
    expect(kv(a)).toMatchObject({ L: 32 });
  });
});
