import { expect } from 'vitest';
import type { PrefillOp, PrefillShape } from '../../../src/core/inference/hf-prefill-shape';

/** A prefill's three parts (hf-prefill.ts for the Llama-style decoder, hf-prefill-gemma2.ts for Gemma-2). */
export interface PrefillParts {
  prologue: (x: PrefillShape) => PrefillOp[];
  layer: (x: PrefillShape, i: number) => PrefillOp[];
  epilogue: (x: PrefillShape) => PrefillOp[];
}

/** Bytes of every tensor the ops allocate, by id. */
export const sizes = (ops: readonly PrefillOp[]) => Object.fromEntries(ops.flatMap((o) => (o.op === 'alloc' ? [[o.id, o.bytes]] : [])));

/** Runs the whole pass, checking every free and rename names a live tensor; returns the most bytes live at once and what is left (the cache). */
export function simulate(parts: PrefillParts, x: PrefillShape, layers: number): { peak: number; left: Map<string, number> } {
  const live = new Map<string, number>();
  let now = 0;
  let peak = 0;
  const run = (ops: readonly PrefillOp[]) => {
    for (const o of ops) {
      if (o.op === 'alloc') {
        expect(live.has(o.id), o.id).toBe(false);
        live.set(o.id, o.bytes);
        now += o.bytes;
        peak = Math.max(peak, now);
      } else if (o.op === 'free') {
        expect(live.has(o.id), o.id).toBe(true);
        now -= live.get(o.id)!;
        live.delete(o.id);
      } else {
        live.set(o.to, live.get(o.id)!);
        live.delete(o.id);
      }
    }
  };
  run(parts.prologue(x));
  for (let i = 0; i < layers; i++) {
    run(parts.layer(x, i));
    run([
      { op: 'rename', id: 'kc', to: `kc${i}` },
      { op: 'rename', id: 'vc', to: `vc${i}` },
    ]);
  }
  run(parts.epilogue(x));
  return { peak, left: live };
}
