/**
 * One Llama-3.2-1B layer's backward as t028 recorded it (tests/fixtures/torch-trace/t028.trace.json.gz:
 * full fine-tuning in bf16, full checkpointing, 1,024 tokens, torch 2.11, transformers 5.x), every
 * tensor of ≥ 512 KiB in order, named from the source; and what the activation-gradient
 * temporaries among them do to the run's reserved memory (issue #10).
 *
 * A layer's backward window: from the first allocation on autograd's device thread (an empty stack)
 * after its recompute (training/full-forward.ts `recompute`) to the next layer's recompute. Frees of
 * the recomputed and checkpointed tensors fall inside it: autograd releases each node's saved
 * tensors as soon as it has run (torch/csrc/autograd/engine.cpp `call_function` →
 * `fn.release_variables()`).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importSnapshot } from '../../src/core/allocator/history-import';
import { simulateTrace } from '../../src/core/allocator/run';

type Event = [string, number, number, number, number];
interface Compact {
  events: Event[];
  stacks: string[];
}
const raw = JSON.parse(gunzipSync(readFileSync(new URL('../fixtures/torch-trace/t028.trace.json.gz', import.meta.url))).toString('utf8')) as Compact;
const ev = raw.events;
const stack = (i: number): string => raw.stacks[ev[i][4]] ?? '';
const onAutograd = (i: number): boolean => ev[i][0] === 'alloc' && stack(i) === '';

/** each recompute's first alloc: input_layernorm's fp32 copy under checkpoint.py's recompute_fn */
const RECOMPUTE = 'llama/modeling_llama.py:64:forward < llama/modeling_llama.py:306:forward < utils/checkpoint.py:1607';
const starts = ev.flatMap((e, i) => (e[0] === 'alloc' && stack(i).startsWith(RECOMPUTE) ? [i] : []));

/** bytes of each alloc, by event index, for the frees (an address is reused once freed) */
const sizeAt = new Map<number, number>();
{
  const live = new Map<number, number>();
  ev.forEach(([action, addr, size], i) => {
    if (action === 'alloc') live.set(addr, size);
    else if (action === 'free_completed') sizeAt.set(i, live.get(addr) ?? 0);
  });
}

/** the embedding's gradient, V·h·2 B: the embedding's backward, after layer 0's, starts with it */
const EMBED_GRAD = 128_256 * 2048 * 2;

/**
 * The k-th recompute's layer backward: from its first autograd alloc to the next recompute, the
 * next alloc from Python (the next micro-step's forward, the optimizer) or the embedding's gradient.
 */
function window(k: number): [number, number] {
  let s = starts[k];
  while (!onAutograd(s)) s++;
  let e = s + 1;
  while (e < ev.length && e !== starts[k + 1] && !(ev[e][0] === 'alloc' && (stack(e) !== '' || ev[e][2] === EMBED_GRAD))) e++;
  return [s, e];
}

/** a window's events of ≥ 512 KiB: allocs as + bytes, frees as − bytes */
function signed([s, e]: [number, number]): number[] {
  const out: number[] = [];
  for (let i = s; i < e; i++) {
    const [action, , size] = ev[i];
    const bytes = action === 'alloc' ? size : action === 'free_completed' ? (sizeAt.get(i) ?? 0) : 0;
    if (bytes >= 2 ** 19) out.push(action === 'alloc' ? bytes : -bytes);
  }
  return out;
}

// t028's shapes: 1,024 tokens, h 2048, q = 32·64, kv = 8·64, ffn 8192, bf16 (2 B) and fp32 (4 B)
const T = 1024;
const H = T * 2048 * 2; // a bf16 token × hidden tensor
const N = T * 2048 * 4; // the norm's fp32 token × hidden tensors
const Q = T * 32 * 64 * 2;
const KV = T * 8 * 64 * 2;
const F = T * 8192 * 2;
// weight gradients (bf16, as the weights): d_in · d_out · 2
const W_MLP = 2048 * 8192 * 2;
const W_QO = 2048 * 2048 * 2;
const W_KV = 2048 * 512 * 2;
// two kernel buffers whose size the launch picks, not a tensor shape: read off the trace, not derived
const REDUCE = 16_777_216; // aten/src/ATen/native/cuda/Reduce.cuh launch_reduce_kernel's global buffer (the weight's sum)
const SDPA_WS = 16_908_544; // the attention backward kernel's workspace, freed before it returns

/**
 * LlamaRMSNorm's backward (modeling_llama.py `LlamaRMSNorm.forward`: `x32 = x.to(float32)`,
 * `x32 * rsqrt(x32.pow(2).mean(-1) + eps)`, `.to(bf16)`, `weight * ·`), derivatives.yaml:
 * `mul` → grad·weight (x_low's) and grad·x_low (the weight's, summed over the tokens with the
 * reduction's buffer); x_low freed; ToCopyBackward casts x_low's gradient to fp32; the mul by
 * rsqrt → grad·x32 (summed to rsqrt's per-token gradient) and grad·rsqrt; the pow / mean branch's
 * four fp32 tensors (`pow_backward`: grad·2·x, `mean_backward`'s expand); x32 freed; the fp32 sum of
 * the two branches cast back to bf16 (ToCopyBackward of `x.to(float32)`), added into the residual
 * stream's gradient in place and freed. `extra`: the first norm frees the checkpoint's input there.
 */
const normBackward = (extra: number[]): number[] => [...[H, H, -H, REDUCE, -REDUCE, -H, -H], ...[N, -H, N, N, -N, -N], ...[N, N, N, N, -N, -N, -N, -N, ...extra, -N], ...[H, -N, -H]];

/** RoPE's backward on a w-wide q or k (`(x·cos) + (rotate_half(x)·sin)`): cat / neg / slice backwards and the mul by cos, summed */
const ropeBackward = (w: number): number[] => [w, w / 2, w, -w / 2, w, -w, -w, w, -w, -w];

describe('t028’s layer backward, named from the source', () => {
  it('every layer of the first micro-step runs the same 122 events, in this order', () => {
    const expected = [
      // LlamaMLP: down_proj (mm: the weight's gradient, then the input's, derivatives.yaml `mm`);
      // its saved input (the product) freed; the product's mul: two F-wide gradients; SiLU's and
      // up's saved outputs freed; up_proj's weight and input gradients; silu_backward's F-wide
      // gradient; gate's output freed; gate_proj's weight and input gradients; the norm output the
      // two Linears saved freed; the two input gradients summed (autograd's InputBuffer::accumulate)
      ...[W_MLP, F, -F, F, F, -F, -F, -F],
      ...[W_MLP, H, -F, F, -F, -F],
      ...[W_MLP, H, -H, -F, H, -H, -H],
      ...normBackward([]),
      // o_proj's weight and input gradients; SDPA's backward: grad_q, grad_k, grad_v at their own
      // widths (enable_gqa: K and V not repeated) and its workspace; SDPA's saves (its output, v,
      // the rotated q and k) freed; o_proj's input gradient freed
      ...[W_QO, Q, Q, KV, KV, SDPA_WS, -SDPA_WS, -Q, -KV, -Q, -KV, -Q],
      // RoPE's backward on k, then on q, each freeing SDPA's gradient it read
      ...ropeBackward(KV),
      ...ropeBackward(Q),
      // v_proj (weight, input gradients); a copy of k's gradient (our reading: the view's backward
      // reshaping a transposed gradient), then k_proj's; v's and k's input gradients summed; q's copy, q_proj's gradients; the
      // first norm's output (saved by the three Linears) freed; q's input gradient added in place
      ...[W_KV, H, -KV, KV, -KV, W_KV, H, -KV, H, -H, -H],
      ...[Q, -Q, W_QO, H, -H, -Q, -H],
      ...normBackward([-H]),
    ];
    expect(expected).toHaveLength(122);
    // starts[0…14]: layers 15…1 of the first micro-step (starts[15], layer 0, runs into the next forward)
    for (let k = 0; k < 15; k++) expect(signed(window(k))).toEqual(expected);
  });
});

describe('what the layer backward’s temporaries do to t028’s reserved memory', () => {
  // a temporary: an alloc on autograd's thread freed within its own layer's window
  const temporary = new Set<number>();
  for (let k = 0; k < starts.length; k++) {
    const [s, e] = window(k);
    const open = new Map<number, number>();
    for (let i = s; i < e; i++) {
      const [action, addr] = ev[i];
      if (onAutograd(i)) open.set(addr, i);
      else if (action === 'free_requested' && open.has(addr)) temporary.add(i);
      else if (action === 'free_completed' && open.has(addr)) {
        temporary.add(open.get(addr)!).add(i);
        open.delete(addr);
      }
    }
  }
  const replay = (events: Event[]): { reserved: number; mallocs: number } => {
    const imported = importSnapshot({ segments: [], device_traces: [events.map(([action, addr, size, stream]) => ({ action, addr, size, stream, frames: [] }))] });
    if (!imported.ok) throw new Error(imported.error.text);
    const run = simulateTrace(imported.value.trace, { capacity: 140 * 2 ** 30 });
    if (!run.ok) throw new Error('simulation refused');
    return { reserved: run.value.peakReserved, mallocs: run.value.final.stats.num_device_alloc };
  };

  it('they cut eight of the run’s 220 segments (132 MiB), all in the first micro-step’s backward', () => {
    // the alloc right after each segment_alloc is the one that asked for it
    const cut = ev.flatMap((e, i) => (e[0] === 'segment_alloc' && temporary.has(ev.findIndex((x, j) => j > i && x[0] === 'alloc')) ? [i] : []));
    // a 20 MiB segment (an 8 MiB fp32 norm temporary, 1–10 MiB requests: kLargeBuffer) and seven of
    // 16 MiB (the MLP's F-wide gradients, T·f·2 = 16 MiB: rounded to 2 MiB, kRoundLarge)
    expect(cut.map((i) => ev[i][2])).toEqual([20 * 2 ** 20, ...Array<number>(7).fill(F)]);
    expect(cut.every((i) => i < starts[16])).toBe(true);
  });

  it('yet without them the run’s peak reserved is 4 MiB (0.03 %) higher, not lower: later tensors take those segments or cut their own', () => {
    const recorded = replay(ev);
    const without = replay(ev.filter((_, i) => !temporary.has(i)));
    expect(recorded.reserved).toBe(12_077_498_368);
    expect(without.reserved - recorded.reserved).toBe(4 * 2 ** 20);
    expect(Math.abs(without.reserved / recorded.reserved - 1)).toBeLessThan(0.001);
  });
});
