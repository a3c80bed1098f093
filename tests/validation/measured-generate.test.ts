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
/** Rows the estimate misses for a reason not yet modelled, with what was measured. */
const KNOWN_MISSES: Record<string, string> = {
  g007: 'gemma-2-2b at 8,192 tokens: 6.35 GiB allocated, 0.24 GiB above the count (as g008)',
  g008: 'gemma-2-2b at 32,768 tokens: 11.98 GiB allocated, about 2 GiB above the count (sliding-window cache layers or the mask under soft-capping, not yet traced)',
};

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

  it('allocated: median |error| ≤ 1 %, every row within 2 % but the known misses', () => {
    const st = errorStats(scores.map((s) => s.allocatedErrPct))!;
    console.log(`allocated: n ${st.n}, median ${st.medianPct.toFixed(2)} %, p90 ${st.p90Pct.toFixed(2)} %`);
    expect(st.medianPct).toBeLessThanOrEqual(1);
    for (const s of scores) if (!KNOWN_MISSES[s.id]) expect(Math.abs(s.allocatedErrPct), s.id).toBeLessThanOrEqual(2);
  });

  it('reserved: every row within 10 % but the known misses (prefill fragments the cache beyond the closed form)', () => {
    const st = errorStats(scores.map((s) => s.reservedErrPct))!;
    console.log(`reserved: n ${st.n}, median ${st.medianPct.toFixed(2)} %, p90 ${st.p90Pct.toFixed(2)} %`);
    for (const s of scores) if (!KNOWN_MISSES[s.id]) expect(Math.abs(s.reservedErrPct), s.id).toBeLessThanOrEqual(10);
  });

  it('the known misses are still misses (a fix should move them into the tolerance above)', () => {
    for (const id of Object.keys(KNOWN_MISSES)) expect(Math.abs(scores.find((s) => s.id === id)!.allocatedErrPct), id).toBeGreaterThan(2);
  });
});
