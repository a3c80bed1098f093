/**
 * Our llama.cpp and vLLM terms against the figures the runtimes print at start-up
 * (src/validation/fixtures/runtime-logs.json: public GitHub issues, settings and exact lines).
 * Prints the per-row and per-component error tables and fails beyond the tolerances stated in
 * src/validation/runtime-logs.ts (TOLERANCES), on every row not marked informational.
 */
import { describe, expect, it } from 'vitest';
import { errorSummary, RUNTIME_LOG_ROWS, runtimeLogChecks, TOLERANCES, type Check } from '../../src/validation/runtime-logs';

const checks = runtimeLogChecks();

function fmt(c: Check): string {
  const digits = c.unit === 'tokens' ? 0 : c.unit === 'GiB' ? 3 : 2;
  const mark = c.within ? 'ok' : c.gated ? 'FAIL' : 'info';
  return `${c.row.padEnd(36)} ${c.component.padEnd(20)} ${c.printed.toFixed(digits).padStart(11)} ${c.ours.toFixed(digits).padStart(11)} ${c.unit.padEnd(6)} ${c.errorPct.toFixed(2).padStart(7)} %  ${mark}`;
}

describe('runtime start-up logs (llama.cpp, vLLM)', () => {
  it('prints the error tables', () => {
    console.log(['row                                  component              printed        ours unit      err', ...checks.map(fmt)].join('\n'));
    console.table(errorSummary(checks).map((r) => ({ ...r, medianAbsPct: r.medianAbsPct.toFixed(2), maxAbsPct: r.maxAbsPct.toFixed(2) })));
    expect(checks.length).toBeGreaterThanOrEqual(30);
  });

  it('every row has a GitHub source, its log lines and at least one comparable figure', () => {
    for (const row of RUNTIME_LOG_ROWS) {
      expect(row.source).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull)\/\d+$/);
      expect(row.lines.length).toBeGreaterThan(0);
      expect(checks.some((c) => c.row === row.id)).toBe(true);
    }
    expect(new Set(RUNTIME_LOG_ROWS.map((r) => r.id)).size).toBe(RUNTIME_LOG_ROWS.length);
  });

  it("each printed figure appears in the row's own log lines", () => {
    for (const row of RUNTIME_LOG_ROWS) {
      const text = row.lines.join('\n').replace(/,/g, '');
      for (const [key, value] of Object.entries(row.printed)) {
        if (key === 'block_size') continue;
        expect(text, `${row.id}.${key}`).toContain(String(value));
      }
    }
  });

  for (const component of Object.keys(TOLERANCES) as (keyof typeof TOLERANCES)[]) {
    const gated = checks.filter((c) => c.component === component && c.gated);
    if (gated.length === 0) continue;
    it(`${component}: within ${TOLERANCES[component].abs !== undefined ? `±${TOLERANCES[component].abs}` : `±${TOLERANCES[component].pct} %`} on ${gated.length} rows (${TOLERANCES[component].why})`, () => {
      const bad = gated.filter((c) => !c.within).map(fmt);
      expect(bad).toEqual([]);
    });
  }

  it('llama.cpp KV buffers are exact to the printed MiB', () => {
    const kv = checks.filter((c) => c.component === 'kv-buffer');
    expect(kv.length).toBeGreaterThanOrEqual(4);
    for (const c of kv) expect(c.ours).toBe(c.printed);
  });
});
