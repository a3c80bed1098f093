/**
 * One layer's forward as the tensors it allocates and frees, in order: the form the step replay
 * (timeline/training.ts) runs and the closed form (training/terms.ts) reads its moments from.
 * Built for LoRA layers (lora-forward.ts loraLayerPlan) and full fine-tuning's (full-forward.ts).
 */

/**
 * One event of a layer's forward: `alloc` bytes (kept for backward when `saved`; `cached`: an AMP
 * weight copy autocast's cache keeps, training/amp-cache.ts), or `free` the n-th alloc; `free: -1`
 * frees the layer's input (the previous layer's output, handed over by the replay). An alloc that
 * is neither saved, cached nor freed by the end is the layer's output.
 */
export type PlanEvent = { alloc: number; saved: boolean; cached?: true } | { free: number };

/** The plans of one layer; null where the layer is not laid out. */
export interface LayerPlans {
  /** the forward that keeps its saves (without checkpointing), or the recompute in backward (full checkpointing) */
  keep: PlanEvent[];
  /** a checkpointed forward (nothing saved but its output), under full checkpointing; else null */
  checkpointed: PlanEvent[] | null;
  /** bytes of the layer input `keep` reads from the previous layer (0: none handed over) */
  input: number;
  /** bytes of the AMP weight copies each run of a plan makes (0: made outside the plan) */
  cached: number;
}

/** Most bytes live at once inside a plan, counting `input` live from its start until `free: -1`. */
export function planPeak(plan: readonly PlanEvent[], input = 0): number {
  const sizes: number[] = [];
  let live = input;
  let peak = live;
  for (const e of plan) {
    if ('alloc' in e) {
      sizes.push(e.alloc);
      live += e.alloc;
      peak = Math.max(peak, live);
    } else live -= e.free < 0 ? input : (sizes[e.free] ?? 0);
  }
  return peak;
}

/** Bytes a plan holds at its end. */
function planEnd(plan: readonly PlanEvent[]): number {
  const sizes: number[] = [];
  let live = 0;
  for (const e of plan) {
    if ('alloc' in e) {
      sizes.push(e.alloc);
      live += e.alloc;
    } else if (e.free >= 0) live -= sizes[e.free] ?? 0;
  }
  return live;
}

/** Most bytes a plan holds at once beyond what it keeps at its end: its temporaries' moment. */
export function planExcess(plan: readonly PlanEvent[]): number {
  return Math.max(0, planPeak(plan) - planEnd(plan));
}

/** Bytes of the weight copies a plan leaves in autocast's cache. */
export function planCached(plan: readonly PlanEvent[]): number {
  return plan.reduce((sum, e) => sum + ('alloc' in e && e.cached ? e.alloc : 0), 0);
}

/** Bytes a plan keeps for backward. */
export function planSaved(plan: readonly PlanEvent[]): number {
  return plan.reduce((sum, e) => sum + ('alloc' in e && e.saved ? e.alloc : 0), 0);
}
