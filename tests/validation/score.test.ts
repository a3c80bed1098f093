import { describe, expect, test } from 'vitest';
import { errorStats, predictedBytes, quantile, scoreRows, statsBy, type ScoredRow } from '../../src/validation/score';
import { mapRow, type Row } from '../../src/validation/mapping';
import { MEASURED_ROWS } from '../../src/validation/measured-rows';
import type { Estimate, Term } from '../../src/core/types';

const GiB = 2 ** 30;
const row = (id: string) => MEASURED_ROWS.find((r) => r.id === id)!;

describe('nearest-rank quantiles', () => {
  test('median and p90 by hand', () => {
    // sorted [1,2,3,4]: rank ceil(0.5·4) = 2 → 2; rank ceil(0.9·4) = 4 → 4
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2);
    expect(quantile([4, 1, 3, 2], 0.9)).toBe(4);
    // 1..10: median rank 5 → 5, p90 rank 9 → 9
    const ten = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(quantile(ten, 0.5)).toBe(5);
    expect(quantile(ten, 0.9)).toBe(9);
    // odd count [3,1,2]: median rank 2 → 2
    expect(quantile([3, 1, 2], 0.5)).toBe(2);
    expect(quantile([7], 0.9)).toBe(7);
    expect(Number.isNaN(quantile([], 0.5))).toBe(true);
  });

  test('errorStats works on absolute errors and leaves its input alone', () => {
    const errs = [-10, 2, -1, 4, 3];
    // |e| sorted [1,2,3,4,10]: median rank 3 → 3, p90 rank ceil(4.5) = 5 → 10
    expect(errorStats(errs)).toEqual({ n: 5, medianPct: 3, p90Pct: 10 });
    expect(errs).toEqual([-10, 2, -1, 4, 3]);
    expect(errorStats([])).toBeNull();
  });

  test('statsBy groups in order of first appearance', () => {
    const fake = (g: string, errPct: number) => ({ errPct, mapped: { source: g } }) as unknown as ScoredRow;
    const rows = [fake('b', 1), fake('a', -4), fake('b', -3), fake('a', 2), fake('b', 2)];
    expect(statsBy(rows, (s) => s.mapped.source)).toEqual([
      ['b', { n: 3, medianPct: 2, p90Pct: 3 }],
      ['a', { n: 2, medianPct: 2, p90Pct: 4 }],
    ]);
  });
});

describe('rows to scenarios', () => {
  test('Qwen2.5-0.5B bf16, 1 → 2048 tokens: 0.97 GiB of torch max allocated (speed benchmark table)', () => {
    const m = mapRow(row('m0001'));
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    expect(m.value.measured).toBeCloseTo(0.97 * GiB, 0);
    expect(m.value.total).toBe('allocated');
    expect(m.value.scenario).toMatchObject({ mode: 'inference', engine: 'transformers', weights: 'bf16', attn: 'flash', batch: 1, prompt: 1, gen: 2048 });
    expect(m.value.scenario.arch).toMatchObject({ hidden: 896, layers: 24, heads: 14, kvHeads: 2, ffn: 4864, vocab: 151936 });
  });

  test('rows with settings the scenario cannot hold are skipped with a coded reason', () => {
    // torchtune README: the A6000 row states the 4090 row's recipe but measures 37.4 vs 18.9 GiB
    expect(mapRow(row('m0393'))).toMatchObject({ ok: false, reason: { code: 'settings-unknown' } });
    expect(mapRow(row('m0397'))).toMatchObject({ ok: false, reason: { code: 'multi-gpu' } });
    const bad: Row = { ...row('m0001'), measured_unit: 'furlongs' };
    expect(mapRow(bad)).toMatchObject({ ok: false, reason: { code: 'unit' } });
  });

  test('a multi-GPU layer split adds one activation peak per further GPU; nvidia-smi rows add the stated context', () => {
    const act: Term = { id: 'activations', bytes: 3, level: 'allocated', derivation: { formula: '', values: {}, source: '', confidence: 'exact' } };
    const e = { allocatedBytes: 100, reservedBytes: 120, deviceBytes: 620, terms: [act] } as unknown as Estimate;
    const base = { scenario: null as never, measured: 1, source: '', mode: '' };
    expect(predictedBytes(e, { ...base, total: 'allocated', sumGpus: 4, contextBytes: null })).toBe(100 + 3 * 3);
    expect(predictedBytes(e, { ...base, total: 'device', sumGpus: 1, contextBytes: 50 })).toBe(170);
    expect(predictedBytes(e, { ...base, total: 'device', sumGpus: 1, contextBytes: null })).toBe(620);
  });

  test('the signed error is 100·(predicted − measured)/measured for every scored row', () => {
    const { scored, skipped } = scoreRows(MEASURED_ROWS);
    expect(scored.length + skipped.length).toBe(MEASURED_ROWS.length);
    for (const s of scored) expect(s.errPct).toBeCloseTo((100 * (s.predicted - s.mapped.measured)) / s.mapped.measured, 9);
  });
});
