/**
 * Our own H200 generate() runs (src/validation/fixtures/measured-generate.json,
 * tools/measure/measure_generate.py): every row mapped (src/validation/measured-generate.ts) and
 * scored on peak allocated and peak reserved. Prints the table.
 */
import { describe, expect, it } from 'vitest';
import { GENERATE_ROWS, scoreGenerateRows } from '../../src/validation/measured-generate';
import { loggedStats, peakTable } from './peak-table';

const scores = scoreGenerateRows();
describe('our H200 generate() runs', () => {
  it('maps every row and prints allocated / reserved, measured vs ours', () => {
    console.log(
      peakTable(
        'model | prompt',
        scores.map((s) => ({ ...s, measured: s.row.measured, label: `${s.row.settings.preset} | ${s.row.settings.prompt}` })),
      ),
    );
    expect(GENERATE_ROWS.length).toBe(21);
    expect(scores.length).toBe(GENERATE_ROWS.length);
  });

  it('allocated: median |error| ≤ 1 %, every row within 2 %', () => {
    const st = loggedStats(
      'allocated',
      scores.map((s) => s.allocatedErrPct),
    );
    expect(st.medianPct).toBeLessThanOrEqual(1);
    for (const s of scores) expect(Math.abs(s.allocatedErrPct), s.id).toBeLessThanOrEqual(2);
  });

  // Reserved comes from the replay of the prompt pass tensor by tensor: the Llama-style models
  // (inference/hf-prefill.ts) and Gemma-2 (hf-prefill-gemma2.ts), every row of these runs.
  const gemma = scores.filter((s) => s.row.settings.preset.startsWith('google/gemma-2'));
  const llamaStyle = scores.filter((s) => !gemma.includes(s));
  it('reserved, every row replayed: median |error| ≤ 0.5 %, every row within 2 %', () => {
    expect([llamaStyle.length, gemma.length]).toEqual([18, 3]);
    for (const [name, rows] of [
      ['all', scores],
      ['Llama-style', llamaStyle],
      ['Gemma-2', gemma],
    ] as const) {
      const st = loggedStats(
        `reserved (${name})`,
        rows.map((s) => s.reservedErrPct),
      );
      expect(st.medianPct, name).toBeLessThanOrEqual(0.5);
    }
    for (const s of scores) expect(Math.abs(s.reservedErrPct), s.id).toBeLessThanOrEqual(2);
  });
});
