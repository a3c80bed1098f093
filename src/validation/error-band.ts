/**
 * Scenario kinds, and the development rows' figures for a kind (shown in the tooltip of the
 * calculator's 80 % band, which is built in bands.ts): the median and p90
 * absolute error of the measured rows of the same kind (mode × engine or training method ×
 * weight family), else of the same mode × engine/method. No band (null) when fewer than
 * MIN_ROWS measured rows cover the scenario's engine or method: an error figure borrowed from
 * another runtime (e.g. HF transformers rows for vLLM, whose pool is pre-allocated) would
 * claim an accuracy nobody measured.
 */
import type { Scenario, WeightFormat } from '../core/types';
import { mapRow } from './mapping';
import { MEASURED_ROWS } from './measured-rows';
import { errorStats, scoreRows, type ScoredRow } from './score';
import { isDiffusionModel } from '../core/diffusion/presets';

/** Storage families whose memory behaves alike: 16/32-bit floats, 8-bit, 4-bit, other GGUF k-quants. */
export type WeightFamily = 'float' | '8bit' | '4bit' | 'lowbit';

const FAMILY: Record<WeightFormat, WeightFamily> = {
  fp64: 'float',
  fp32: 'float',
  fp16: 'float',
  bf16: 'float',
  fp8: '8bit',
  int8: '8bit',
  'bnb-int8': '8bit',
  int4: '4bit',
  'gptq-int8': '8bit',
  'gguf-q8_0': '8bit',
  nf4: '4bit',
  fp4: '4bit',
  'gptq-int4': '4bit',
  'awq-int4': '4bit',
  'gguf-q4_k_m': '4bit',
  'gguf-q4_k_s': '4bit',
  'gguf-q4_0': '4bit',
  'gguf-q6_k': 'lowbit',
  'gguf-q5_k_m': 'lowbit',
  'gguf-q3_k_m': 'lowbit',
  'gguf-q2_k': 'lowbit',
};

/** Weight family of a storage format. */
export const weightFamily = (w: WeightFormat): WeightFamily => FAMILY[w];

/** Fewer rows than this give no spread worth quoting (p90 of 1–2 rows is just their maximum). */
export const MIN_ROWS = 3;

/** Inference runs on an engine; training's memory is set by its method. */
/** An image-generation pipeline runs in diffusers, whatever `engine` says (core/diffusion). */
const runnerOf = (s: Scenario): string => (isDiffusionModel(s.model) ? 'diffusers' : s.mode === 'inference' ? s.engine : s.method);

/** The scenario's kind, coarse to fine: "inference/transformers" then "inference/transformers/float". */
export function kindKeys(s: Scenario): [string, string] {
  const coarse = `${s.mode}/${runnerOf(s)}`;
  return [coarse, `${coarse}/${weightFamily(s.weights)}`];
}

export interface ErrorBand {
  medianPct: number;
  p90Pct: number;
  n: number;
  /** the kind the rows share, e.g. "inference/transformers/float" (parts translated by the page) */
  basis: string;
}

/** Band for `s` from a report's scored rows (see the module comment for the fallback). */
export function bandFrom(scored: readonly ScoredRow[], s: Scenario): ErrorBand | null {
  const [coarse, fine] = kindKeys(s);
  const errs = (key: string) => scored.filter((r) => kindKeys(r.mapped.scenario).includes(key)).map((r) => r.errPct);
  for (const basis of [fine, coarse]) {
    const st = errorStats(errs(basis));
    if (st && st.n >= MIN_ROWS) return { ...st, basis };
  }
  return null;
}

/** Scored rows by coarse kind, each kind scored on first use. */
const scoredKinds = new Map<string, ScoredRow[]>();

/**
 * The shipped measurements of `s`'s coarse kind (mode × engine or method), scored: every row the
 * fine and the coarse band of `s` can draw on, and no other, so a page showing inference scores
 * only the inference rows and never needs the training estimator (report.ts scores them all).
 * Memoised per coarse kind; the same rows, in the same order, as the full report's of that kind.
 */
export function scoredOfKind(s: Scenario): readonly ScoredRow[] {
  const coarse = kindKeys(s)[0];
  let rows = scoredKinds.get(coarse);
  if (!rows) {
    const mapped = MEASURED_ROWS.filter((r) => {
      const m = mapRow(r);
      return m.ok && kindKeys(m.value.scenario)[0] === coarse;
    });
    rows = scoreRows(mapped).scored;
    scoredKinds.set(coarse, rows);
  }
  return rows;
}

/** Bands computed so far, by fine kind key. */
const table = new Map<string, ErrorBand | null>();

/** Expected error of our estimate for `s`, from the shipped measurements of its kind (memoised per kind). */
export function expectedErrorBand(s: Scenario): ErrorBand | null {
  const key = kindKeys(s)[1];
  if (!table.has(key)) table.set(key, bandFrom(scoredOfKind(s), s));
  return table.get(key)!;
}
