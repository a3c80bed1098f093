/**
 * Validation against published GPU-memory measurements (src/validation/fixtures/measured-dev.json;
 * mapping rules in src/validation/mapping.ts, scoring in src/validation/score.ts: the same code
 * the page's Accuracy view runs). Prints the error table and fails beyond the stated tolerances.
 */
import { describe, expect, it } from 'vitest';
import { validationReport } from '../../src/validation/report';
import { errorStats, errorTable, skippedList, statsBy } from '../../src/validation/score';
import { kindKeys } from '../../src/validation/error-band';

/** Tolerances on absolute % error (target from the issue: median ≤ 5 %, p90 ≤ 15 %). */
const MEDIAN_TOL = 5;
const P90_TOL = 15;

const report = validationReport();
const { scored } = report;

describe('validation against published measurements', () => {
  it('maps most rows and prints the error table', () => {
    console.log(errorTable(report));
    console.log(
      "by scenario kind (the calculator's error band):\n" +
        statsBy(scored, (s) => kindKeys(s.mapped.scenario)[1])
          .map(([k, st]) => `  ${k} | ${st.n} | ${st.medianPct.toFixed(1)} | ${st.p90Pct.toFixed(1)}`)
          .join('\n'),
    );
    console.log('skipped:\n' + skippedList(report));
    if (process.env.VALIDATION_ROWS)
      console.log(
        scored
          .map(
            (s) =>
              `${s.row.id} ${s.mapped.source} / ${s.mapped.mode} measured ${(s.mapped.measured / 2 ** 30).toFixed(2)} GiB predicted ${(s.predicted / 2 ** 30).toFixed(2)} GiB err ${s.errPct.toFixed(1)}%`,
          )
          .join('\n'),
      );
    expect(scored.length).toBeGreaterThanOrEqual(115);
  });
  it(`median |error| ≤ ${MEDIAN_TOL} % and p90 ≤ ${P90_TOL} % over all mapped rows`, () => {
    const all = errorStats(scored.map((s) => s.errPct))!;
    expect(all.medianPct).toBeLessThanOrEqual(MEDIAN_TOL);
    expect(all.p90Pct).toBeLessThanOrEqual(P90_TOL);
  });
});
