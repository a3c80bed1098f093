import { describe, expect, test } from 'vitest';
import { validationReport } from '../../src/validation/report';
import { groupOf, type ScoredRow } from '../../src/validation/score';
import { chooseWiden, devSpread, logoCoverage, nestedCoverage, widen, WIDEN_FACTOR, WIDEN_GRID } from '../../src/validation/coverage';
import { applyBand, bandBasis, bandsFor, basisFrom, logoBandCoverage } from '../../src/validation/bands';
import { kindKeys, scoredOfKind } from '../../src/validation/error-band';
import { defaultScenario } from '../../src/core/scenario/schema';
import { estimate } from '../../src/core/estimate';
import type { Scenario } from '../../src/core/types';

const scenario = (p: Partial<Scenario>): Scenario => ({ ...defaultScenario(), ...p });
// nearest rank: element ⌈q·n⌉ (1-based) of the sorted sample
const nearest = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1];

// Independent check of 2026-11-25 (src/validation/independent-check.ts), p80 ≈ median + ¾ · (p90 − median):
const P80_ALL = 11.7 + 0.75 * (58.8 - 11.7); // all rows, bias not stated: two-sided ±47.025
const P80_INFER_CURRENT = 4 + 0.75 * (18 - 4); // bias +2 < median 4: two-sided ±14.5
const P80_LORA_VARLEN = 32 + 0.75 * (56 - 32); // bias −32 = −median: one-sided [−50, 0]
const P80_FULL_VARLEN = 7 + 0.75 * (46 - 7); // bias −7 = −median: one-sided [−36.25, 0]
const P80_ZERO3 = 29 + 0.75 * (31 - 29); // one-sided [−30.5, 0]

describe('leave-one-group-out coverage on the development rows (groups = publication / setting)', () => {
  const rows = validationReport().scored;
  /** The test's own cross-validation: each group out, the band of each of its rows from the others' rows of its kind. */
  function coverage(k: number): { covered: number; n: number } {
    let covered = 0;
    let n = 0;
    for (const g of new Set(rows.map(groupOf))) {
      const rest = rows.filter((r) => groupOf(r) !== g);
      for (const r of rows.filter((x) => groupOf(x) === g)) {
        const [coarse, fine] = kindKeys(r.mapped.scenario);
        const fineErrs = rest.filter((x) => kindKeys(x.mapped.scenario)[1] === fine).map((x) => x.errPct);
        const errs = fineErrs.length >= 3 ? fineErrs : rest.filter((x) => kindKeys(x.mapped.scenario)[0] === coarse).map((x) => x.errPct);
        if (errs.length < 3) continue;
        const p10 = nearest(errs, 0.1);
        const p90 = nearest(errs, 0.9);
        const mid = (p10 + p90) / 2;
        const half = (k * (p90 - p10)) / 2;
        n++;
        if (r.errPct >= mid - half && r.errPct <= mid + half) covered++;
      }
    }
    return { covered, n };
  }

  test('the 10th–90th percentile band as is holds fewer than 80 % of a held-out publication', () => {
    const raw = coverage(1);
    expect(logoCoverage(rows, 1)).toMatchObject(raw);
    // every row but those whose kind only their own group covers (torchtune LoRA / QLoRA) is checked
    expect(raw.n).toBeGreaterThan(rows.length * 0.9);
    expect(raw.covered / raw.n).toBeLessThan(0.8);
  });

  test('the shipped widening factor is the grid value whose coverage is nearest 80 %, and that coverage lies in 70–90 %', () => {
    const k = WIDEN_FACTOR;
    // chosen again from every development row: a change to the rows or the estimator that moves it fails here
    expect(chooseWiden(rows)).toBe(k);
    const gaps = WIDEN_GRID.map((x) => {
      const c = coverage(x);
      return Math.abs(c.covered / c.n - 0.8);
    });
    expect(Math.abs(coverage(k).covered / coverage(k).n - 0.8)).toBe(Math.min(...gaps));
    const c = coverage(k);
    expect(c.covered / c.n).toBeGreaterThanOrEqual(0.7);
    expect(c.covered / c.n).toBeLessThanOrEqual(0.9);
  });

  test('nested (factor chosen again without each held-out group): 50–90 % — out of sample the development band alone is optimistic', () => {
    const nc = nestedCoverage(rows);
    expect(nc.n).toBe(coverage(1).n);
    expect(nc.covered / nc.n).toBeGreaterThanOrEqual(0.5);
    expect(nc.covered / nc.n).toBeLessThanOrEqual(0.9);
  });

  test("the band as shipped (spanning the independent check's class spread) holds at least 80 % of the rows, not all of them", () => {
    const c = logoBandCoverage(rows);
    expect(c.n).toBe(rows.length);
    expect(c.covered / c.n).toBeGreaterThanOrEqual(0.8);
    // the torchtune LoRA / QLoRA rows (we overestimate them by 1–5 %) fall outside the independent check's
    // one-sided LoRA band [−50 %, 0] once their own group is left out
    expect(c.covered).toBeLessThan(c.n);
    const lora = rows.filter((r) => r.mapped.scenario.method === 'lora' || r.mapped.scenario.method === 'qlora');
    expect(lora.every((r) => r.errPct > 0)).toBe(true);
    expect(c.covered).toBeLessThanOrEqual(c.n - lora.length);
  });
});

describe("each kind's band is drawn from that kind's rows alone", () => {
  // one scenario per kind the rows cover, plus kinds they do not (vLLM, LoRA) and a guessed shape
  const kinds: Partial<Scenario>[] = [
    {},
    { weights: 'nf4' },
    { weights: 'gptq-int8' },
    { engine: 'vllm' },
    { mode: 'training', method: 'full' },
    { mode: 'training', method: 'lora' },
    { mode: 'training', method: 'qlora', weights: 'nf4' },
    { mode: 'training', method: 'full', gpus: 8, zero: 3 },
    { model: '', params: 7e9 },
  ];

  test("scoring only the scenario's coarse kind finds the rows the full report has of that kind", () => {
    const all = validationReport().scored;
    for (const p of kinds) {
      const s = scenario(p);
      const coarse = kindKeys(s)[0];
      expect(scoredOfKind(s).map((r) => r.row.id)).toEqual(all.filter((r) => kindKeys(r.mapped.scenario)[0] === coarse).map((r) => r.row.id));
    }
    // the inference page's kind needs none of the training rows
    expect(scoredOfKind(scenario({})).some((r) => r.mapped.scenario.mode === 'training')).toBe(false);
  });

  test('the band is the one drawn from every development row with the widening factor chosen on them', () => {
    const all = validationReport().scored;
    for (const p of kinds) {
      const s = scenario(p);
      expect(bandBasis(s)).toEqual(basisFrom(all, chooseWiden(all), s));
    }
  });
});

describe('signed bands', () => {
  const full = scenario({ mode: 'training', method: 'full', weights: 'bf16' });
  const fake = (errPct: number, source: string) => ({ errPct, mapped: { scenario: full, source, mode: 'full' } }) as unknown as ScoredRow;
  // a kind we underestimate: nine of ten errors negative
  const errs = [-30, -25, -20, -18, -15, -12, -10, -8, -5, 2];
  const rows = errs.map((e, i) => fake(e, i < 5 ? 'A' : 'B'));

  test('a biased kind gets an asymmetric band: 10th / 90th percentile of the signed error, by hand', () => {
    // n = 10: p10 is element ⌈1⌉ = −30, p90 element ⌈9⌉ = −5
    expect(devSpread(rows, full)).toEqual({ key: 'training/full/float', n: 10, groups: 2, p10: -30, p90: -5 });
    expect(widen(devSpread(rows, full)!, 1)).toEqual([-30, -5]);
    // ×2 about the middle −17.5: half-width 2 · 12.5 = 25
    expect(widen(devSpread(rows, full)!, 2)).toEqual([-42.5, 7.5]);
    // a 100 GiB estimate: the measurement lies in [100 / 0.95, 100 / 0.70] = [105.26, 142.86], all above it
    const [lo, hi] = applyBand(100, [-30, -5]);
    expect(lo).toBeCloseTo(100 / 0.95, 10);
    expect(hi).toBeCloseTo(100 / 0.7, 10);
    expect(lo).toBeGreaterThan(100);
  });

  test("validated: the development band, spanning the independent check's class (full fine-tuning, variable-length data)", () => {
    const b = basisFrom(rows, 1, full);
    expect(b.kind).toBe('validated');
    expect(b.development).toMatchObject({ rows: 10, groups: 2, p10: -30, p90: -5, widen: 1, signedPct: [-30, -5] });
    expect(b.independent.classes).toEqual(['full-variable-length']);
    expect(b.signedPct).toEqual([-P80_FULL_VARLEN, 0]);
    // the same rows on 8 GPUs under ZeRO-3: not validated (every development row ran on one GPU)
    const z3 = basisFrom(rows, 1, { ...full, gpus: 8, zero: 3 });
    expect(z3).toMatchObject({ kind: 'not-validated', reason: 'multi-gpu' });
    expect(z3.independent.classes).toEqual(['full-variable-length', 'full-zero3']);
    expect(z3.signedPct).toEqual([-Math.max(P80_FULL_VARLEN, P80_ZERO3), 0]);
  });

  test('an uncovered regime is "not validated" with the wider spread: LoRA, ZeRO-3, vLLM', () => {
    const lora = bandBasis(scenario({ mode: 'training', method: 'lora' }));
    expect(lora.kind).toBe('not-validated');
    expect(lora.reason).toBe('no-rows');
    const loraRows = validationReport()
      .scored.filter((r) => r.mapped.scenario.method === 'lora')
      .map((r) => r.errPct);
    expect(loraRows.length).toBeLessThan(3);
    expect(lora.signedPct).toEqual([-P80_LORA_VARLEN, Math.max(0, ...loraRows)]);
    expect(lora.development!.rows).toBe(loraRows.length);
    const z3 = bandBasis(scenario({ mode: 'training', method: 'full', gpus: 8, zero: 3 }));
    expect(z3).toMatchObject({ kind: 'not-validated', reason: 'multi-gpu', signedPct: [-P80_FULL_VARLEN, 0] });
    const vllm = bandBasis(scenario({ engine: 'vllm' }));
    expect(vllm).toMatchObject({ kind: 'not-validated', reason: 'no-rows' });
    expect(vllm.signedPct[0]).toBeCloseTo(-P80_ALL, 10);
    expect(vllm.signedPct[1]).toBeCloseTo(P80_ALL, 10);
    expect(vllm.independent.classes).toEqual([]);
  });

  test('a guessed shape (bare parameter count) gets no precise band: the widest spread', () => {
    const g = bandBasis(scenario({ model: '', params: 7e9 }));
    expect(g.kind).toBe('guessed-shape');
    expect(g.signedPct[0]).toBeCloseTo(-P80_ALL, 10);
    expect(g.signedPct[1]).toBeCloseTo(P80_ALL, 10);
    // the same kind with a named model is validated and narrower
    const named = bandBasis(scenario({}));
    expect(named.kind).toBe('validated');
    expect(named.signedPct).toEqual([-P80_INFER_CURRENT, P80_INFER_CURRENT]);
  });

  test('every total gets [T / (1 + hi), T / (1 + lo)]; the basis is memoised per regime', () => {
    const s = scenario({});
    const r = estimate(s);
    if (!r.ok) throw new Error('estimate failed');
    const { bands, bandBasis: basis } = bandsFor(s, r.value);
    const e = r.value;
    for (const [k, total] of [
      ['allocatedBytes', e.allocatedBytes],
      ['reservedBytes', e.reservedBytes],
      ['deviceBytes', e.deviceBytes],
    ] as const) {
      expect(bands[k][0]).toBeCloseTo(total / (1 + P80_INFER_CURRENT / 100), 0);
      expect(bands[k][1]).toBeCloseTo(total / (1 - P80_INFER_CURRENT / 100), 0);
    }
    expect(bandBasis({ ...s, batch: 4, prompt: 100 })).toBe(basis);
  });
});
