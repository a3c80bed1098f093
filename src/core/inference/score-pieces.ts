/**
 * The score tensors an eager attention or SDPA's math kernel materialises, one by one, for the step
 * timeline (core/timeline/inference.ts): kept out of the closed form, which needs only their total
 * (transient.ts `familyEagerScoreBytes`, core/sdpa.ts `SDPA_MATH_BYTES`).
 */
import { FAMILIES, ownEagerHeld } from '../model/families';
import type { ScoreTensors } from './transient';

/**
 * The same score tensors one by one, in the order the code makes them: bytes per score element of
 * each size and how many of that size (the tensors the file holds, the masked sum, then the fp32
 * copy and result). The step timeline allocates them as such, so their freed segments serve later
 * requests as the real ones do. The sum of bytes × count is transient.ts `familyEagerScoreBytes`.
 */
export function eagerScorePieces(family: string, e: number, fp16: boolean): { bytes: number; count: number }[] {
  const own = FAMILIES[family]?.eager;
  const held = own ? ownEagerHeld(own) : 0;
  switch (own?.softmax ?? 'fp32') {
    case 'model-dtype':
    case 'input-dtype':
      return [{ bytes: e, count: held + 2 }];
    case 'fp32-scores':
      return [
        { bytes: e, count: held },
        { bytes: 4, count: 2 },
      ];
    default:
      if (e >= 4) return [{ bytes: e, count: held + 2 }];
      // fp16: the fused upcast writes the fp32 result, then its 16-bit copy; bf16: the fp32 copy, then the fp32 result
      return fp16
        ? [
            { bytes: e, count: held + 1 },
            { bytes: 4, count: 1 },
            { bytes: e, count: 1 },
          ]
        : [
            { bytes: e, count: held + 1 },
            { bytes: 4, count: 2 },
          ];
  }
}

/**
 * The tensors to allocate for `scores`: `max` tensors of `size` bytes for each entry, in order; a
 * remote file's as many model-dtype tensors as the set holds; SDPA's math kernel its fp32 scores,
 * its fp32 `_safe_softmax` result and that one's `eq(-inf)` bool (core/sdpa.ts `SDPA_MATH_BYTES`).
 */
export function scorePieces(scores: ScoreTensors): { size: number; max: number }[] {
  const { elems, e, fp16, by } = scores;
  if (by === 'remote') return [{ size: elems * e, max: Infinity }];
  if (by === 'sdpa-math')
    return [
      { size: elems * 4, max: 2 },
      { size: elems, max: 1 },
    ];
  return eagerScorePieces(by.family, e, fp16).map((p) => ({ size: elems * p.bytes, max: p.count }));
}
