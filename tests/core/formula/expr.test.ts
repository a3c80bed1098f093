import { describe, expect, it } from 'vitest';
import { add, ceil, conflictingSymbols, derive, div, evaluate, floor, max, min, mul, render, sub, sym, symbolValues } from '../../../src/core/formula';
import { evaluateFormula } from './parse-formula';

// Llama-2-7b (h 4096, L 32, a = g 32, d 128; formulas.md §1.1)
const L = sym('L', 32);
const g = sym('g', 32);
const d = sym('d', 128);

describe('formula expressions (issue #11 §3)', () => {
  it('KV cache of Llama-2-7b, 2 sequences of 3000 + 1096 tokens in fp16: 2·L·g·d·(s_in + s_out)·b·bytes_kv = 4 GiB', () => {
    const kv = mul(2, L, g, d, add(sym('s_in', 3000), sym('s_out', 1096)), sym('b', 2), sym('bytes_kv', 2));
    expect(render(kv)).toBe('2·L·g·d·(s_in + s_out)·b·bytes_kv');
    // HF DynamicCache: K and V per layer per token (formulas.md §3.1)
    expect(evaluate(kv)).toBe(2 * 32 * 32 * 128 * 4096 * 2 * 2);
    expect(evaluate(kv)).toBe(4 * 2 ** 30);
    expect(symbolValues(kv)).toEqual({ L: 32, g: 32, d: 128, s_in: 3000, s_out: 1096, b: 2, bytes_kv: 2 });
  });

  it('parenthesises only where the reading order would change the tree', () => {
    const a = sym('a', 7);
    const b = sym('b', 3);
    const c = sym('c', 2);
    expect(render(sub(a, sub(b, c)))).toBe('a − (b − c)');
    expect(render(sub(sub(a, b), c))).toBe('a − b − c');
    expect(render(div(a, mul(b, c)))).toBe('a/(b·c)');
    expect(render(div(mul(a, b), c))).toBe('a·b/c');
    expect(render(mul(a, div(b, c)))).toBe('a·(b/c)');
    expect(render(mul(add(a, b), c))).toBe('(a + b)·c');
    expect(render(max(a, ceil(div(b, c)), floor(c), min(a, b)))).toBe('max(a, ceil(b/c), floor(c), min(a, b))');
    for (const e of [sub(a, sub(b, c)), div(a, mul(b, c)), mul(a, div(b, c)), max(a, ceil(div(b, c)))]) {
      expect(evaluateFormula(render(e), symbolValues(e))).toBe(evaluate(e));
    }
  });

  it('sums and products flatten and drop a literal 0 / 1', () => {
    expect(render(add(sym('x', 1), add(sym('y', 2), 0)))).toBe('x + y');
    expect(render(mul(1, sym('x', 5), mul(2, sym('y', 3))))).toBe('x·2·y');
    expect(evaluate(add())).toBe(0);
    expect(evaluate(mul())).toBe(1);
  });

  it('vLLM pool: floor((ceil((C − driver)·util) − used)/(16·kv_token))·16·kv_token on an RTX 3090 (vllm #10517)', () => {
    const MiB = 2 ** 20;
    const requested = ceil(mul(sub(sym('C', 24576 * MiB), sym('driver', 434 * MiB)), sym('util', 0.9)));
    const block = mul(16, sym('kv_token', 131_072));
    const pool = mul(floor(div(max(0, sub(requested, sym('used', 20e9))), block)), block);
    // gpu_worker.py determine_available_memory, kv_cache_interface.py: whole blocks of 16 tokens
    const left = Math.ceil((24576 - 434) * MiB * 0.9) - 20e9;
    expect(evaluate(pool)).toBe(Math.floor(left / (16 * 131_072)) * 16 * 131_072);
    expect(evaluateFormula(render(pool), symbolValues(pool))).toBe(evaluate(pool));
  });

  it('finds a symbol given two values', () => {
    expect(conflictingSymbols(add(sym('x', 1), sym('x', 2), sym('y', 1)))).toEqual(['x']);
    expect(conflictingSymbols(add(sym('x', 1), sym('x', 1)))).toEqual([]);
  });

  it('a derivation reads its formula and values from the expression, annotations after the symbols', () => {
    const e = mul(sym('P', 6_738_415_616), sym('w', 2));
    const dv = derive(e, { values: { format: 'bf16' }, source: 'formulas.md §2.1', confidence: 'exact' });
    expect(dv.formula).toBe('P·w');
    expect(dv.values).toEqual({ P: 6_738_415_616, w: 2, format: 'bf16' });
    expect(JSON.parse(JSON.stringify(dv))).toEqual({ formula: 'P·w', values: { P: 6_738_415_616, w: 2, format: 'bf16' }, source: 'formulas.md §2.1', confidence: 'exact' });
  });
});
