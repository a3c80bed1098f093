/**
 * Our own H200 runs (src/validation/fixtures/measured-gpu.json, tools/measure/measure_trainer.py):
 * every row mapped (src/validation/measured-gpu.ts) and scored on peak allocated and peak reserved.
 * Prints the table; set VALIDATION_ROWS=1 for it in `npm run validate`.
 */
import { describe, expect, it } from 'vitest';
import { GPU_ROWS, scoreGpuRows } from '../../src/validation/measured-gpu';

const GiB = 2 ** 30;
const scores = scoreGpuRows();

describe('our H200 Trainer runs', () => {
  it('maps every row and prints allocated / reserved, measured vs ours', () => {
    console.log(
      'row | lengths | allocated measured / ours GiB | reserved measured / ours GiB | reserved err %\n' +
        scores
          .map(
            (s) =>
              `${s.id} | ${s.varied ? 'varied' : 'fixed'} | ${(s.measuredAllocated / GiB).toFixed(1)} / ${(s.predictedAllocated / GiB).toFixed(1)} | ${(s.measuredReserved / GiB).toFixed(1)} / ${(s.predictedReserved / GiB).toFixed(1)} | ${s.reservedErrPct.toFixed(0)}`,
          )
          .join('\n'),
    );
    expect(scores.length).toBe(GPU_ROWS.length);
  });
});
