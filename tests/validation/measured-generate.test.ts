/**
 * Our own H200 generate() runs (src/validation/fixtures/measured-generate.json,
 * tools/measure/measure_generate.py): every row mapped (src/validation/measured-generate.ts) and
 * scored on peak allocated and peak reserved. Prints the table.
 */
import { describe, expect, it } from 'vitest';
import { GENERATE_ROWS, scoreGenerateRows } from '../../src/validation/measured-generate';
import { errorStats } from '../../src/validation/score';

const GiB = 2 ** 30;
const scores = scoreGenerateRows();
describe('our H200 generate() runs', () => {
  it('maps every row and prints allocated / reserved, measured vs ours', () => {
    console.log(
      'row | model | prompt | allocated measured / ours GiB | err % | reserved measured / ours GiB | err %\n' +
        scores
          .map(
            (s) =>
              `${s.id} | ${s.row.settings.preset} | ${s.row.settings.prompt} | ${(s.row.measured.allocated / GiB).toFixed(2)} / ${(s.predictedAllocated / GiB).toFixed(2)} | ${s.allocatedErrPct.toFixed(1)} | ${(s.row.measured.reserved / GiB).toFixed(2)} / ${(s.predictedReserved / GiB).toFixed(2)} | ${s.reservedErrPct.toFixed(1)}`,
          )
          .join('\n'),
    );
    expect(GENERATE_ROWS.length).toBe(21);
    expect(scores.length).toBe(GENERATE_ROWS.length);
  });

  it('allocated: median |error| ≤ 1 %, every row within 2 %', () => {
    const st = errorStats(scores.map((s) => s.allocatedErrPct))!;
    console.log(`allocated: n ${st.n}, median ${st.medianPct.toFixed(2)} %, p90 ${st.p90Pct.toFixed(2)} %`);
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
      const st = errorStats(rows.map((s) => s.reservedErrPct))!;
      console.log(`reserved (${name}): n ${st.n}, median ${st.medianPct.toFixed(2)} %, p90 ${st.p90Pct.toFixed(2)} %`);
      expect(st.medianPct, name).toBeLessThanOrEqual(0.5);
    }
    for (const s of scores) expect(Math.abs(s.reservedErrPct), s.id).toBeLessThanOrEqual(2);
  });
});
