/**
 * How fast a scenario can run on a GPU at best: roofline upper bounds, not predictions.
 *
 * - Decode is memory-bound: every step reads the weights it uses and the whole KV cache once and
 *   yields one token per sequence, so tokens/s ≤ b · bandwidth / (weights read + KV read)
 *   (roofline model, Williams, Waterman & Patterson 2009, CACM 52(4); the usual LLM decode bound).
 *   With MoE only the experts routed to are read: with k of E experts per token and b tokens per
 *   step, a layer touches E·(1 − (1 − k/E)^b) experts in expectation under uniform routing.
 * - Prefill is compute-bound: a token costs 2 FLOPs per active parameter (one multiply-add) plus
 *   causal attention, 2·L·a·d·s FLOPs at context s (QKᵀ and A·V over s/2 keys on average), so
 *   tokens/s ≤ N · peak / FLOPs per token at the tensor-core peak of the compute dtype.
 * - Training: a token costs 2 FLOPs per parameter forward and 4 backward, 6·P in all (Kaplan et al.
 *   2020, arXiv 2001.08361 §2.1); a frozen base needs only the input gradients backward (2·P, no
 *   weight-gradient matmuls), full checkpointing runs the forward twice (+2·P, Korthikanti et al.
 *   2022 §5). Step time = FLOPs per step / (N · peak · MFU), MFU as defined in the PaLM paper
 *   (Chowdhery et al. 2022, arXiv 2204.02311 App. B), 40 % by default.
 */
import type { Gpu } from '../gpu-types';
import type { Estimate, ModelArch, Scenario, WeightFormat } from '../types';
import { GB } from '../units';

export interface SpeedBound {
  value: number;
  formula: string;
  values: Record<string, number | string>;
  source: string;
}

export interface Speed {
  decodeTokensPerSecond: SpeedBound | null;
  prefillTokensPerSecond: SpeedBound | null;
  stepSeconds: SpeedBound | null;
  /** why a bound is missing (e.g. no published tensor throughput for that dtype) */
  notes: string[];
}

type PeakKey = 'fp16' | 'bf16' | 'fp8' | 'int8' | 'fp4';

/**
 * The tensor-core dtype a weight format computes in: 16-bit formats in their own dtype; fp8
 * weights in fp8; quantized formats dequantize to 16-bit before the matmul (bitsandbytes,
 * GPTQ/AWQ and llama.cpp kernels), counted at the fp16 peak. fp32 has no tensor-core figure.
 */
export function computeDtype(w: WeightFormat): PeakKey | null {
  if (w === 'fp32' || w === 'fp64') return null;
  if (w === 'bf16') return 'bf16';
  if (w === 'fp8') return 'fp8';
  return 'fp16';
}

const ROOFLINE = 'roofline bound (Williams, Waterman & Patterson 2009)';

/** Expected experts a MoE layer reads for `tokens` routed tokens, k of E each, uniform routing. */
export function expertsTouched(experts: number, perToken: number, tokens: number): number {
  if (experts <= 0) return 0;
  return experts * (1 - Math.pow(1 - Math.min(1, perToken / experts), Math.max(1, tokens)));
}

/** Fraction of the stored weights one decode step of `b` sequences reads (1 for dense models). */
function weightReadFraction(arch: ModelArch, totalParams: number, activeParams: number, b: number): number {
  const m = arch.moe;
  if (!m || totalParams <= 0 || m.experts <= 0) return 1;
  const expertParams = (totalParams - activeParams) / Math.max(1e-9, 1 - m.expertsPerToken / m.experts);
  const always = totalParams - expertParams;
  const touched = expertParams * (expertsTouched(m.experts, m.expertsPerToken, b) / m.experts);
  return Math.min(1, (always + touched) / totalParams);
}

/** Decode bound per GPU group: b tokens per step over (weights read + KV read) at the card's bandwidth. */
function decodeBound(s: Scenario, e: Estimate, arch: ModelArch, gpu: Gpu): SpeedBound | null {
  const weights = e.terms.find((t) => t.id === 'weights')?.bytes ?? 0;
  if (weights <= 0 || gpu.bandwidthGBs <= 0) return null;
  const frac = weightReadFraction(arch, e.params.total, e.params.active, s.batch);
  // the cache grows from prompt to prompt + gen: on average prompt + gen/2 tokens are read. Bytes per
  // token come from the engine's own kv-cache term (its layout: MLA latent, windows, tp split); vLLM's
  // term is its whole pool, of engine.kvTokens tokens
  const context = s.prompt + s.gen / 2;
  const kvTerm = e.terms.find((t) => t.id === 'kv-cache')?.bytes ?? 0;
  const held = e.engine?.kvTokens ?? s.batch * (s.prompt + s.gen);
  const kv = held > 0 ? (kvTerm / held) * s.batch * context : 0;
  const perStep = weights * frac + kv;
  return {
    value: (s.batch * gpu.bandwidthGBs * GB) / perStep,
    formula: 'b · BW / (W_read + KV_read)',
    values: { b: s.batch, BW_GBs: gpu.bandwidthGBs, W_read: Math.round(weights * frac), KV_read: Math.round(kv), context_avg: context },
    source: `${ROOFLINE}: each decode step reads the weights it uses (MoE: experts routed to) and the KV cache once`,
  };
}

/** Forward FLOPs per token: 2·P_active + causal attention 2·L·a·d·s at context s. */
function forwardFlopsPerToken(arch: ModelArch, active: number, context: number): number {
  return 2 * active + 2 * arch.layers * arch.heads * arch.headDim * context;
}

function peakOf(gpu: Gpu, dtype: PeakKey | null): number | null {
  if (dtype === null) return null;
  const v = gpu.tflops[dtype] ?? (dtype === 'bf16' ? gpu.tflops.fp16 : null);
  return v !== null && v > 0 ? v * 1e12 : null;
}

/** Roofline bounds for `s` (estimated as `e`) on `gpu`; `mfu` is the training utilisation (0–1]. */
export function rooflineSpeed(s: Scenario, e: Estimate, arch: ModelArch, gpu: Gpu, mfu: number): Speed {
  const notes: string[] = [];
  const dtype = s.mode === 'training' ? (s.precision === 'fp32' ? null : s.precision.endsWith('bf16') ? 'bf16' : 'fp16') : computeDtype(s.weights);
  const peak = peakOf(gpu, dtype);
  if (peak === null) notes.push(`${gpu.name}: no published dense tensor throughput for ${dtype ?? 'fp32'}; no compute bound`);
  const n = Math.max(1, s.tp * s.pp);
  if (s.mode === 'inference') {
    const flops = forwardFlopsPerToken(arch, e.params.active, s.prompt / 2);
    return {
      decodeTokensPerSecond: decodeBound(s, e, arch, gpu),
      prefillTokensPerSecond:
        peak === null
          ? null
          : {
              value: (n * peak) / flops,
              formula: 'N · peak / (2·P_active + 2·L·a·d·s/2)',
              values: { N: n, peak_TFLOPS: peak / 1e12, P_active: e.params.active, L: arch.layers, a: arch.heads, d: arch.headDim, s: s.prompt, dtype: dtype ?? '' },
              source: `${ROOFLINE}: 2 FLOPs per parameter per token (one multiply-add) plus causal attention`,
            },
      stepSeconds: null,
      notes,
    };
  }
  const frozen = s.method !== 'full';
  const k = (frozen ? 4 : 6) + (s.gradCkpt === 'full' ? 2 : 0);
  // split=layers (device_map="auto"): one process, its GPUs take turns, so one computes at a time
  const busy = s.split === 'layers' ? 1 : s.gpus;
  const dp = Math.max(1, Math.floor(busy / n));
  const tokens = s.batch * s.seq * s.gradAccum * dp;
  // attention has no weights: backward costs twice its forward whatever is frozen
  const attn = 2 * arch.layers * arch.heads * arch.headDim * (s.seq / 2) * (3 + (s.gradCkpt === 'full' ? 1 : 0));
  const flops = (k * e.params.total + attn) * tokens;
  const u = Number.isFinite(mfu) && mfu > 0 ? Math.min(1, mfu) : 0.4;
  return {
    decodeTokensPerSecond: null,
    prefillTokensPerSecond: null,
    stepSeconds:
      peak === null
        ? null
        : {
            value: flops / (busy * peak * u),
            formula: '(k·P + attention) · tokens / (N · peak · MFU)',
            values: { k, P: e.params.total, tokens, N: busy, peak_TFLOPS: peak / 1e12, MFU: u, dtype: dtype ?? '' },
            source:
              'Kaplan et al. 2020 (arXiv 2001.08361) §2.1: 6 FLOPs per parameter per token; frozen base 4 (no weight gradients); full checkpointing +2 (Korthikanti et al. 2022 §5); MFU: PaLM (arXiv 2204.02311) App. B',
          },
    notes,
  };
}
