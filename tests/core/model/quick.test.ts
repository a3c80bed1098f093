import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { guessArch, parseParamCount, parseQuickCount, shapeGuessNote } from '../../../src/core/model/quick';
import { countParams } from '../../../src/core/model/params';

describe('parseQuickCount', () => {
  test.each([
    ['7b', 7e9],
    ['7B', 7e9],
    ['6.7e9', 6.7e9],
    ['70 billion', 70e9],
    ['125m', 125e6],
    ['1.5t', 1.5e12],
    ['7,000,000,000', 7e9],
    [' 13 B ', 13e9],
    ['350M params', 350e6],
    ['.5b', 5e8],
    ['124439808', 124439808],
  ])('%s -> %d', (text, n) => {
    expect(parseQuickCount(text)).toBe(n);
  });

  test.each(['', 'abc', '7,5b', '0', '-7b', '7x', '1e16', 'NaN', 'Infinity', '7b7', '1,00,000'])('%j is rejected', (text) => {
    expect(parseQuickCount(text)).toBeNull();
  });

  test('parseParamCount names the field', () => {
    const r = parseParamCount('seven', 'params');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ key: 'params', code: 'invalid-count' });
    expect(parseParamCount('7b')).toEqual({ ok: true, value: 7e9 });
  });

  test('never throws; results are finite and positive (1,000 runs)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const n = parseQuickCount(s);
        expect(n === null || (Number.isFinite(n) && n >= 1)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('guessArch', () => {
  // Requested count vs countParams of the guessed shape: L is re-solved, so the error is about half a layer.
  test.each([1.24e8, 3.5e8, 1e9, 2e9, 7e9, 13e9, 34e9, 70e9, 180e9, 405e9, 1e12, 1e13, 1e15])('%d lands within 3%%', (p) => {
    const total = countParams(guessArch(p)).total;
    expect(Math.abs(total / p - 1)).toBeLessThan(0.03);
  });

  test('shapes follow the Llama family: 7b -> h 4096, MHA; 70b -> h 8192 with 8 KV heads', () => {
    expect(guessArch(7e9)).toMatchObject({ hidden: 4096, heads: 32, kvHeads: 32, headDim: 128, ffn: 11008, vocab: 32000 });
    expect(guessArch(70e9)).toMatchObject({ hidden: 8192, heads: 64, kvHeads: 8 });
  });

  test('is flagged as a guess', () => {
    const a = guessArch(7e9);
    expect(a.family).toBe('llama-guess');
    expect(shapeGuessNote(7e9, a)).toMatchObject({ code: 'model.shape-guess', params: { hidden: 4096 } });
  });

  test('any count gives a valid finite shape (1,000 runs)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e20, max: 1e20, noNaN: false }), (p) => {
        const a = guessArch(p);
        expect(a.layers).toBeGreaterThanOrEqual(1);
        expect(Number.isFinite(countParams(a).total)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
