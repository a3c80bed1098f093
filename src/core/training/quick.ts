/**
 * The classic back-of-envelope training estimate (the method most calculators and blog posts
 * use; see prior-art.md): weights P·w, gradients P·w, Adam's two moments 2·P·w, all at the
 * weights' nominal width w, plus a per-sample activation figure times the batch. It ignores
 * master copies, logits, allocator and context — kept to show where the detailed model differs.
 */
export interface ClassicInput {
  params: number;
  /** nominal bytes per parameter of the weights (formats/weights.ts bytesPerParamNominal) */
  bytesPerParam: number;
  /** activation bytes per sample */
  perSampleBytes: number;
  batch: number;
}

export interface ClassicEstimate {
  weights: number;
  gradients: number;
  optimizer: number;
  activations: number;
  total: number;
}

const nonNeg = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);

/** weights + gradients + 2 Adam moments at the weight width, plus batch × per-sample activations. */
export function classicTraining(x: ClassicInput): ClassicEstimate {
  const P = nonNeg(x.params);
  const w = nonNeg(x.bytesPerParam);
  const weights = P * w;
  const gradients = P * w;
  const optimizer = 2 * P * w;
  const activations = nonNeg(x.batch) * nonNeg(x.perSampleBytes);
  return { weights, gradients, optimizer, activations, total: weights + gradients + optimizer + activations };
}

/** Largest batch the classic method fits in `capacityBytes` (0 when the states alone do not fit). */
export function classicMaxBatch(x: Omit<ClassicInput, 'batch'>, capacityBytes: number): number {
  const fixed = classicTraining({ ...x, batch: 0 }).total;
  const per = nonNeg(x.perSampleBytes);
  if (per === 0 || !(capacityBytes >= fixed)) return 0;
  return Math.floor((capacityBytes - fixed) / per);
}
