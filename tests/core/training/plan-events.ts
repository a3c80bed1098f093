/** Test helpers for layer plans (src/core/training/layer-plan.ts). */
import type { PlanEvent } from '../../../src/core/training/layer-plan';

/** the allocs of an event list in order, `+` bytes, and the frees as `-` bytes of the tensor freed (`input`: the handed-over input) */
export function signed(ev: readonly PlanEvent[], input = NaN): number[] {
  const sizes: number[] = [];
  return ev.map((e) => {
    if ('alloc' in e) {
      sizes.push(e.alloc);
      return e.alloc;
    }
    return -(e.free < 0 ? input : (sizes[e.free] ?? NaN));
  });
}
