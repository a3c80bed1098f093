/**
 * The 80 % error band of each total of an estimate, and what it rests on (`bandBasis`). The
 * band is a range of SIGNED error e (%, e = 100 · (estimate − measured) / measured); a total T
 * then lies in [T / (1 + e_hi/100), T / (1 + e_lo/100)]: a kind we underestimate (e < 0) gets
 * a band reaching above the estimate. One relative band serves all three totals, since the
 * published rows measure one total each (mostly torch max_memory_allocated).
 *
 * - validated: the scenario runs on one GPU with a named architecture, and at least MIN_ROWS
 *   development rows (fixtures/measured-dev.json) share its kind. The band is their 10th–90th
 *   percentile of signed error, widened by the factor that leave-one-group-out cross-validation
 *   needs to hold 80 % of a publication it has not seen (coverage.ts). Where the independent
 *   check (independent-check.ts) found a wider spread for the class the scenario belongs to,
 *   the band spans that too: those rows were not tuned to, the development rows were.
 * - not-validated: no development rows of the kind (LoRA, QLoRA, freeze, vLLM, llama.cpp),
 *   more than one GPU, ZeRO or offload. The band is the independent check's spread for the
 *   scenario's classes, else that of the whole check (the widest), spanning also the errors of
 *   the few development rows of the kind if there are any.
 * - guessed-shape: a bare parameter count (the architecture is guessed): no precise band; the
 *   widest spread, or the kind's own if that is wider still.
 *
 * Memoised per regime: the first call for a kind scores that kind's development rows
 * (error-band.ts `scoredOfKind`); the widening factor is the shipped WIDEN_FACTOR (coverage.ts), so
 * no band needs the rows of any other kind.
 */
import type { Estimate, Scenario } from '../core/types';
import { chooseWiden, devSpread, widen, WIDEN_FACTOR } from './coverage';
import { kindKeys, scoredOfKind } from './error-band';
import { classBand, INDEPENDENT_CHECK, independentClass, overallBand, type IndependentClassId, type SignedBand } from './independent-check';
import { groupOf, type ScoredRow } from './score';
import { VARIED_RESERVED_BAND, type VariedBand } from './varied-band';
import { isDiffusionModel } from '../core/diffusion/presets';

export type BasisKind = 'validated' | 'not-validated' | 'guessed-shape';

/** Why a scenario has no development rows to rest on. */
export type NotValidatedReason = 'no-rows' | 'multi-gpu' | 'guessed-shape';

export interface BandBasis {
  kind: BasisKind;
  /** the scenario's kind, e.g. "inference/transformers/float" */
  regime: string;
  /** the band of signed error, %, applied to every total */
  signedPct: SignedBand;
  /** set when not validated */
  reason?: NotValidatedReason;
  /** development rows the band rests on (validated), or the few rows of the kind (fewer than MIN_ROWS) */
  development?: {
    /** the kind the rows share (may be the coarser mode/engine or mode/method kind) */
    key: string;
    rows: number;
    groups: number;
    /** their 10th / 90th percentile of signed error, % (absent for fewer than MIN_ROWS rows) */
    p10?: number;
    p90?: number;
    /** widening from leave-one-group-out cross-validation */
    widen?: number;
    /** the widened band */
    signedPct: SignedBand;
  };
  /** classes of the independent check the scenario belongs to, and when it ran */
  independent: { date: string; commit: string; classes: IndependentClassId[]; signedPct: SignedBand | null };
  /** lengths=varied, default allocator: the reserved and device bands span the drawn orders' 10th–90th percentile, and how often that held on our runs (varied-band.ts) */
  varied?: VariedBand;
}

export interface Bands {
  allocatedBytes: [number, number];
  reservedBytes: [number, number];
  deviceBytes: [number, number];
}

const BNB = new Set(['bnb-int8', 'nf4', 'fp4']);
const FLOAT = new Set(['fp32', 'fp16', 'bf16']);

/** The independent check's classes a scenario falls in (several when the scenario cannot tell them apart). */
export function independentClasses(s: Scenario): IndependentClassId[] {
  if (s.mode === 'inference') {
    if (s.engine !== 'transformers' || isDiffusionModel(s.model)) return [];
    // remote-code chat models (int8 / int4) and bitsandbytes short-prompt rows may be any such model
    return FLOAT.has(s.weights) ? ['infer-current', 'infer-short-bnb'] : BNB.has(s.weights) ? ['infer-current', 'infer-remote-code', 'infer-short-bnb'] : ['infer-current', 'infer-remote-code'];
  }
  const out: IndependentClassId[] = [];
  // the data may be packed to a fixed length or padded per batch: both classes apply
  if (s.method === 'lora') out.push('lora-variable-length', 'lora-fixed-length', 'lora-bf16-1k');
  if (s.method === 'qlora') out.push('lora-variable-length', 'qlora-1k');
  if (s.method === 'full') out.push('full-variable-length');
  if (s.zero === 3) out.push('full-zero3');
  return out;
}

const span = (bands: readonly (SignedBand | null | undefined)[]): SignedBand | null => {
  const bs = bands.filter((b): b is SignedBand => !!b);
  return bs.length ? [Math.min(...bs.map((b) => b[0])), Math.max(...bs.map((b) => b[1]))] : null;
};

/** One GPU, no ZeRO, no offload: the only setting the development rows measured. */
const oneGpu = (s: Scenario) => s.gpus === 1 && s.tp === 1 && s.pp === 1 && s.zero === 0 && s.offload === 'none';

/** The basis of `s`'s band from the development rows `scored`, with widening factor `k`. */
export function basisFrom(scored: readonly ScoredRow[], k: number, s: Scenario): BandBasis {
  const regime = kindKeys(s)[1];
  const classes = independentClasses(s);
  const independent = { date: INDEPENDENT_CHECK.date, commit: INDEPENDENT_CHECK.commit, classes, signedPct: span(classes.map((c) => classBand(independentClass(c)))) };
  const sp = devSpread(scored, s);
  const guessed = s.model === '';
  if (sp && oneGpu(s) && !guessed) {
    const dev = widen(sp, k);
    return {
      kind: 'validated',
      regime,
      signedPct: span([dev, independent.signedPct])!,
      development: { key: sp.key, rows: sp.n, groups: sp.groups, p10: sp.p10, p90: sp.p90, widen: k, signedPct: dev },
      independent,
    };
  }
  // the few rows of the kind (under MIN_ROWS), which still show where our error has been
  const few = sp ? [] : scored.filter((r) => kindKeys(r.mapped.scenario)[1] === regime);
  const errs = few.map((r) => r.errPct);
  const development = few.length ? { key: regime, rows: few.length, groups: new Set(few.map(groupOf)).size, signedPct: [Math.min(...errs), Math.max(...errs)] as SignedBand } : undefined;
  const base = span([independent.signedPct ?? overallBand(), development?.signedPct])!;
  if (guessed) return { kind: 'guessed-shape', regime, reason: 'guessed-shape', signedPct: span([base, overallBand()])!, ...(development ? { development } : {}), independent };
  return { kind: 'not-validated', regime, reason: sp ? 'multi-gpu' : 'no-rows', signedPct: base, ...(development ? { development } : {}), independent };
}

/** What decides the band: the kind, the weight format (class), the method, one GPU, a guessed shape. */
const regimeKey = (s: Scenario) => [s.model === '' ? 'guess' : 'arch', s.mode, s.mode === 'inference' ? s.engine : s.method, s.weights, oneGpu(s) ? 1 : 0, s.zero].join('/');

const memo = new Map<string, BandBasis>();

/** What the band of `s` rests on (memoised per regime). */
export function bandBasis(s: Scenario): BandBasis {
  const key = regimeKey(s);
  let b = memo.get(key);
  if (!b) {
    b = basisFrom(scoredOfKind(s), WIDEN_FACTOR, s);
    memo.set(key, b);
  }
  return b;
}

/** [lo, hi] for a total T under a signed-error band: the measurement is T / (1 + e / 100). */
export function applyBand(total: number, [lo, hi]: SignedBand): [number, number] {
  // e > −100 % always (both figures are positive); keep the divisor away from 0 anyway
  const below = (e: number) => Math.max(1 + e / 100, 0.01);
  return [total / below(hi), total / below(lo)];
}

/**
 * How far above the estimate the memory of `s` may reach: the upper end of its 80 % band as a
 * factor of the total (core/deploy/fit-mark.ts marks a card "tight" within it).
 */
export function bandHigh(s: Scenario): number {
  return applyBand(1, bandBasis(s).signedPct)[1];
}

/** What a lengths=varied estimate's reserved band also rests on (default allocator), else undefined. */
export function variedBasis(s: Scenario): VariedBand | undefined {
  return s.mode === 'training' && s.lengths === 'varied' && s.allocConf === 'default' ? VARIED_RESERVED_BAND : undefined;
}

/** The 80 % band of each total of `est` (the estimate of `s`) and its basis. */
export function bandsFor(s: Scenario, est: Estimate): { bands: Bands; bandBasis: BandBasis } {
  const basis = bandBasis(s);
  const b = (t: number) => applyBand(t, basis.signedPct);
  // varied lengths: reserved depends on the order of the lengths, which no estimate knows; the band
  // spans the drawn orders' 10th to 90th percentile (varied-band.ts); before the replay has run
  // (the closed form) there is no spread yet, and the closed form's band stands
  const spread = est.orderSpread;
  const varied = variedBasis(s);
  if (!varied || !spread) return { bands: { allocatedBytes: b(est.allocatedBytes), reservedBytes: b(est.reservedBytes), deviceBytes: b(est.deviceBytes) }, bandBasis: basis };
  const [lo, hi] = b(est.reservedBytes);
  const reservedBytes: [number, number] = [Math.min(lo, spread.p10), Math.max(hi, spread.p90)];
  const outside = est.deviceBytes - est.reservedBytes;
  return {
    bands: { allocatedBytes: b(est.allocatedBytes), reservedBytes, deviceBytes: [reservedBytes[0] + outside, reservedBytes[1] + outside] },
    bandBasis: { ...basis, varied },
  };
}

/**
 * Leave-one-group-out coverage of the band as shipped: each publication / setting in turn is left
 * out, k is chosen again on the others, and each left-out row is checked against the band its
 * scenario gets from the others' rows (independent-check spread and all).
 */
export function logoBandCoverage(rows: readonly ScoredRow[]): { covered: number; n: number } {
  let covered = 0;
  for (const g of new Set(rows.map(groupOf))) {
    const rest = rows.filter((r) => groupOf(r) !== g);
    const k = chooseWiden(rest);
    for (const r of rows) {
      if (groupOf(r) !== g) continue;
      const [lo, hi] = basisFrom(rest, k, r.mapped.scenario).signedPct;
      if (r.errPct >= lo && r.errPct <= hi) covered++;
    }
  }
  return { covered, n: rows.length };
}
