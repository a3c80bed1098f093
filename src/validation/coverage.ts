/**
 * How wide an 80 % band drawn from the development rows must be to hold 80 % of measurements
 * from a publication it has not seen, by leave-one-group-out cross-validation (a group is one
 * publication / setting, `groupOf`): every group in turn is left out, the band of each of its
 * rows is drawn from the other groups' rows of the same kind, and we count the rows inside.
 *
 * The band of a kind is the 10th–90th percentile of the SIGNED error of its rows (so a biased
 * kind gets an asymmetric band), widened about its middle by a factor k. Rows of one publication
 * share their setting, so they agree with each other more than with other publications: k = 1
 * holds far fewer than 80 % of a left-out group's rows. k is chosen as the grid value whose
 * cross-validated coverage is nearest 80 %; the coverage quoted for it is NESTED (k chosen
 * again without the left-out group), so it is measured on rows the choice never saw.
 * Pure: no DOM, no Node APIs.
 */
import type { Scenario } from '../core/types';
import { kindKeys, MIN_ROWS } from './error-band';
import type { SignedBand } from './independent-check';
import { groupOf, quantile, type ScoredRow } from './score';

/** The share of measurements an 80 % band should hold. */
export const TARGET = 0.8;

/** Widening factors tried: 1, 1.25, …, 4. */
export const WIDEN_GRID: readonly number[] = Array.from({ length: 13 }, (_, i) => 1 + i / 4);

/**
 * The widening factor of the shipped bands: `chooseWiden` on every development row (the training
 * rows too). Written down rather than chosen at run time, so that a page showing one kind scores
 * only that kind's rows (error-band.ts `scoredOfKind`) and an inference page never fetches the
 * training estimator; tests/validation/bands.test.ts chooses it again from the rows, and by a
 * cross-validation of its own, and fails when a change to the rows or the estimator moves it.
 */
export const WIDEN_FACTOR = 1;

/** Signed-error spread of the rows of one kind. */
export interface DevSpread {
  /** the kind the rows share (fine, else coarse: see error-band.ts) */
  key: string;
  n: number;
  /** publications / settings among them */
  groups: number;
  /** 10th and 90th percentile (nearest rank) of the signed error, % */
  p10: number;
  p90: number;
}

/** A row's kind keys and group, computed once per row (the cross-validation asks for them thousands of times). */
const rowKeys = new WeakMap<ScoredRow, { kinds: [string, string]; group: string }>();
function keysOf(r: ScoredRow): { kinds: [string, string]; group: string } {
  let k = rowKeys.get(r);
  if (!k) {
    k = { kinds: kindKeys(r.mapped.scenario), group: groupOf(r) };
    rowKeys.set(r, k);
  }
  return k;
}
const groupOfRow = (r: ScoredRow) => keysOf(r).group;

/** Spread of the rows of `s`'s kind: its fine kind, else its coarse kind; null under MIN_ROWS rows. */
export function devSpread(rows: readonly ScoredRow[], s: Scenario): DevSpread | null {
  const [coarse, fine] = kindKeys(s);
  for (const key of [fine, coarse]) {
    const same = rows.filter((r) => keysOf(r).kinds.includes(key));
    if (same.length < MIN_ROWS) continue;
    const errs = same.map((r) => r.errPct);
    return { key, n: same.length, groups: new Set(same.map(groupOfRow)).size, p10: quantile(errs, 0.1), p90: quantile(errs, 0.9) };
  }
  return null;
}

/** The spread's band widened k times about its middle. */
export function widen(sp: DevSpread, k: number): SignedBand {
  const mid = (sp.p10 + sp.p90) / 2;
  const half = (k * (sp.p90 - sp.p10)) / 2;
  return [mid - half, mid + half];
}

export interface Coverage {
  /** rows inside their band */
  covered: number;
  /** rows that got a band from the other groups (a group whose kind no other group covers gets none) */
  n: number;
  /** per left-out group: [group, covered, n] */
  byGroup: [string, number, number][];
}

const groupsOf = (rows: readonly ScoredRow[]) => [...new Set(rows.map(groupOfRow))];

/** Each row with the spread of its kind among the OTHER groups' rows (null when they hold too few). */
function heldOut(rows: readonly ScoredRow[]): [ScoredRow, DevSpread | null][] {
  const out: [ScoredRow, DevSpread | null][] = [];
  for (const g of groupsOf(rows)) {
    const rest = rows.filter((r) => groupOfRow(r) !== g);
    const byKind = new Map<string, DevSpread | null>();
    for (const r of rows) {
      if (groupOfRow(r) !== g) continue;
      const key = kindKeys(r.mapped.scenario)[1];
      if (!byKind.has(key)) byKind.set(key, devSpread(rest, r.mapped.scenario));
      out.push([r, byKind.get(key)!]);
    }
  }
  return out;
}

function count(pairs: readonly [ScoredRow, DevSpread | null][], k: (g: string) => number): Coverage {
  const tally = new Map<string, [number, number]>();
  for (const [r, sp] of pairs) {
    const g = groupOfRow(r);
    const t = tally.get(g) ?? [0, 0];
    tally.set(g, t);
    if (!sp) continue;
    const [lo, hi] = widen(sp, k(g));
    t[1]++;
    if (r.errPct >= lo && r.errPct <= hi) t[0]++;
  }
  const byGroup = [...tally].map(([g, [c, m]]) => [g, c, m] as [string, number, number]);
  return { covered: byGroup.reduce((a, x) => a + x[1], 0), n: byGroup.reduce((a, x) => a + x[2], 0), byGroup };
}

/** Leave-one-group-out coverage of the band widened by a fixed k. */
export const logoCoverage = (rows: readonly ScoredRow[], k: number): Coverage => count(heldOut(rows), () => k);

/** The grid value of k whose leave-one-group-out coverage is nearest TARGET (the smaller on a tie). */
export function chooseWiden(rows: readonly ScoredRow[]): number {
  const pairs = heldOut(rows);
  let best = WIDEN_GRID[0];
  let gap = Infinity;
  for (const k of WIDEN_GRID) {
    const c = count(pairs, () => k);
    const d = c.n === 0 ? Infinity : Math.abs(c.covered / c.n - TARGET);
    if (d < gap - 1e-12) {
      best = k;
      gap = d;
    }
  }
  return best;
}

/** Coverage with k chosen anew without each left-out group: the honest out-of-sample figure. */
export function nestedCoverage(rows: readonly ScoredRow[]): Coverage {
  const kOf = new Map(groupsOf(rows).map((g) => [g, chooseWiden(rows.filter((r) => groupOfRow(r) !== g))]));
  return count(heldOut(rows), (g) => kOf.get(g)!);
}
