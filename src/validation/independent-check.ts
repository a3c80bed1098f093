/**
 * The independent accuracy check: a second set of published GPU-memory measurements (public
 * benchmark tables of fine-tuning frameworks, model READMEs) kept outside this repository, so
 * that accuracy can be judged on rows nobody tuned the estimator to. Only its aggregated
 * figures per class of scenario live here, as the maintainers published them; the rows do not.
 * Nothing in the estimator is fitted to these figures: they serve as the stated basis of the
 * error band where the development rows (fixtures/measured-dev.json) cover no scenario of the
 * kind, and are shown on the Accuracy view. Pure data plus one derivation; no DOM, no Node APIs.
 *
 * Figures per class: rows, median and 90th percentile of |error| in %, and the bias (median
 * SIGNED error in %; negative = our estimate is below the measurement).
 */

/** When and on which commit the check ran, and its size. */
export const INDEPENDENT_CHECK = {
  date: '2026-11-25',
  commit: '759022c',
  rows: 319,
  publishers: 12,
  /** rows whose setting the calculator refused */
  refused: 30,
  /** over every scored row */
  all: { medianPct: 11.7, p90Pct: 58.8, within10Pct: 46 },
  /** a plain formula estimator (weights + KV + activations + optimizer, no runtime modelling), same rows */
  plainFormula: { medianPct: 8.6, p90Pct: 29.5 },
  /** the development rows' figures quoted beside it on the same date */
  development: { medianPct: 1.1, p90Pct: 3.1 },
} as const;

export type IndependentClassId =
  'infer-current' | 'infer-remote-code' | 'infer-short-bnb' | 'lora-variable-length' | 'lora-fixed-length' | 'lora-bf16-1k' | 'qlora-1k' | 'lora-gptq' | 'full-variable-length' | 'full-zero3';

export interface IndependentClass {
  id: IndependentClassId;
  n: number;
  /** null: the calculator refused these rows, so there is no error to quote */
  medianPct: number | null;
  p90Pct: number | null;
  biasPct: number | null;
}

/** The classes in the order the check lists them (their descriptions are translated by the page). */
export const INDEPENDENT_CLASSES: readonly IndependentClass[] = [
  // inference on HF transformers, current model families, batch 1, prompts up to 30k tokens
  { id: 'infer-current', n: 80, medianPct: 4, p90Pct: 18, biasPct: 2 },
  // inference on HF transformers, 2023–24 chat models loaded with remote code, incl. int8 / int4, long prompts
  { id: 'infer-remote-code', n: 60, medianPct: 6, p90Pct: 30, biasPct: -1 },
  // inference in bf16 and bitsandbytes 4-bit, short prompt, 1.3B–70B (Phi, GPT-NeoX, Falcon among them)
  { id: 'infer-short-bnb', n: 17, medianPct: 4, p90Pct: 13, biasPct: -4 },
  // LoRA / QLoRA with the HF Trainer on variable-length data truncated at 512–8192 tokens, reserved memory
  { id: 'lora-variable-length', n: 60, medianPct: 32, p90Pct: 56, biasPct: -32 },
  // LoRA at a fixed sequence length of 256–8192, with or without DeepSpeed
  { id: 'lora-fixed-length', n: 31, medianPct: 13, p90Pct: 21, biasPct: -13 },
  // LoRA in bf16 at a fixed ~1k tokens, no checkpointing
  { id: 'lora-bf16-1k', n: 9, medianPct: 5, p90Pct: 7, biasPct: -5 },
  // QLoRA (bitsandbytes 4-bit) at a fixed ~1k tokens, no checkpointing
  { id: 'qlora-1k', n: 8, medianPct: 22, p90Pct: 24, biasPct: -22 },
  // LoRA over GPTQ int4 / int8 bases: refused by the calculator
  { id: 'lora-gptq', n: 30, medianPct: null, p90Pct: null, biasPct: null },
  // full fine-tuning with the HF Trainer on variable-length data, 512–8192 tokens
  { id: 'full-variable-length', n: 15, medianPct: 7, p90Pct: 46, biasPct: -7 },
  // full fine-tuning under DeepSpeed ZeRO-3
  { id: 'full-zero3', n: 9, medianPct: 29, p90Pct: 31, biasPct: -29 },
];

/** A class's figures by id. */
export const independentClass = (id: IndependentClassId): IndependentClass => INDEPENDENT_CLASSES.find((c) => c.id === id)!;

/** Signed error band in %: [lo, hi], lo ≤ hi; the measurement is predicted / (1 + e / 100). */
export type SignedBand = readonly [number, number];

/**
 * An 80 % band of SIGNED error from a class's three published figures. Only the median (50 %)
 * and p90 (90 %) of |error| are known, so the 80th percentile of |error| is read off the line
 * between them: p80 ≈ median + ¾ · (p90 − median). When the bias is as large as the median
 * (|bias| ≥ median: at least half the rows err by that much on the bias's side, so nearly all
 * lie on that side) the band is one-sided, [−p80, 0] or [0, p80]; otherwise it is ±p80.
 * Either way about 80 % of the class's rows fall inside (more where the one-sided reading is
 * conservative). Null for a class the calculator refused.
 */
export function classBand(c: IndependentClass): SignedBand | null {
  if (c.medianPct === null || c.p90Pct === null || c.biasPct === null) return null;
  const p80 = c.medianPct + 0.75 * (c.p90Pct - c.medianPct);
  if (c.biasPct <= -c.medianPct) return [-p80, 0];
  if (c.biasPct >= c.medianPct) return [0, p80];
  return [-p80, p80];
}

/** The check over all its rows read the same way (bias not published: two-sided): the widest default. */
export function overallBand(): SignedBand {
  const { medianPct, p90Pct } = INDEPENDENT_CHECK.all;
  const p80 = medianPct + 0.75 * (p90Pct - medianPct);
  return [-p80, p80];
}
