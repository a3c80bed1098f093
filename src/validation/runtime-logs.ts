/**
 * Start-up figures that llama.cpp and vLLM print (fixtures/runtime-logs.json, copied from public
 * GitHub issues with their settings) compared with the matching term of our estimate.
 *
 * Mapping: llama.cpp n_ctx = batch × prompt (batch = n_seq, gen 0), -fa → attn 'flash' (else the
 * non-flash path), -ngl all → ngl null, n_ubatch → ubatch; vLLM max_model_len → prompt (batch 1,
 * gen 0), max_num_batched_tokens → ubatch, dtype → weights and KV format, the catalogue GPU.
 *
 * Components and what they are compared with:
 * - llama.cpp `model buffer` (GPU) → weights term; `KV buffer` → kv-cache term; GPU `compute
 *   buffer` → workspace term; host `output buffer` / `compute buffer` / token_embd → the buffer
 *   functions of core/inference/llamacpp-buffers.ts and the GGUF embedding bytes.
 * - vLLM weights → weights term; activation peak (printed, or peak_torch − weights) →
 *   activations term; KV cache GiB → kv-cache term; GPU blocks × block size or KV tokens →
 *   engine.kvTokens; total_gpu_memory → the catalogue capacity less the driver's share.
 * Pure (no DOM, no Node APIs), so the page can show the same table.
 */
import data from './fixtures/runtime-logs.json';
import { estimate } from '../core/estimate';
import { ggufBytesFromArch } from '../core/formats/gguf';
import { resolveGpu } from '../core/gpus';
import { hostComputeBuffer, outputBuffer } from '../core/inference/llamacpp-buffers';
import { vllmVisibleTotal } from '../core/inference/vllm';
import { countParams } from '../core/model/params';
import { findPreset } from '../core/model/presets';
import { defaultScenario } from '../core/scenario/schema';
import type { Estimate, KvFormat, ModelArch, Scenario, TermId, WeightFormat } from '../core/types';
import { quantile } from './score';
import { GiB, MiB } from '../core/units';

export interface LogRow {
  id: string;
  engine: 'llama.cpp' | 'vllm';
  source: string;
  model: string;
  arch?: Partial<ModelArch>;
  settings: Record<string, unknown>;
  lines: string[];
  printed: Record<string, number>;
  /** shown in the table but not held to the tolerance, with the reason */
  informational?: string;
  notes?: string;
}

/** The fixture rows (shape checked by tests/validation/runtime-logs.test.ts). */
export const RUNTIME_LOG_ROWS: readonly LogRow[] = data.rows as unknown as LogRow[];

export type Component =
  'model-buffer' | 'host-embedding' | 'kv-buffer' | 'compute-buffer' | 'host-compute-buffer' | 'output-buffer' | 'weights' | 'activation' | 'kv-cache' | 'kv-tokens' | 'total-memory';

/** Allowed error per component: relative (%) or absolute (in the printed unit), and why. */
export const TOLERANCES: Record<Component, { pct?: number; abs?: number; why: string }> = {
  'kv-buffer': { abs: 0.01, why: 'cells × layers × widths × type sizes is exact: equal to the printed 0.01 MiB' },
  'output-buffer': { abs: 0.005, why: 'n_vocab × n_seq × 4 B, exact to the print' },
  'host-compute-buffer': { abs: 0.05, why: 'embedding rows + mask; position/id inputs (≈0.01 MiB) not modelled' },
  'model-buffer': { pct: 1, why: 'GGUF per-tensor types (formats/ggml.ts)' },
  'host-embedding': { pct: 1, why: "token_embd at the mix's type" },
  'compute-buffer': { pct: 2, why: 'largest live set of the worst-case graph' },
  weights: { pct: 2, why: 'parameter bytes per GPU; vLLM adds small buffers (rotary caches)' },
  'total-memory': { pct: 0.5, why: 'nvidia-smi capacity − 434 MiB driver share' },
  'kv-tokens': { pct: 10, why: 'the pool is what is left after the profile peak and non-torch memory' },
  'kv-cache': { pct: 10, why: 'as kv-tokens' },
  activation: { pct: 10, why: 'profile peak: the forward over max_num_batched_tokens or the sampler warm-up (sort scratch included), each counted from the code' },
};

export interface Check {
  row: string;
  engine: LogRow['engine'];
  component: Component;
  unit: 'MiB' | 'GiB' | 'tokens';
  printed: number;
  ours: number;
  /** ours − printed, in the unit */
  diff: number;
  /** signed % error of ours against printed */
  errorPct: number;
  within: boolean;
  gated: boolean;
  source: string;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const DTYPE: Record<string, WeightFormat> = { bfloat16: 'bf16', float16: 'fp16', float32: 'fp32' };
const KV_TYPE: Record<string, KvFormat> = { f16: 'fp16', bf16: 'bf16', f32: 'fp32', q8_0: 'q8_0', q4_0: 'q4_0' };

/** The Scenario a log row ran (mapping rules in the file comment). */
export function logScenario(row: LogRow): Scenario {
  const st = row.settings;
  const s: Scenario = { ...defaultScenario(), mode: 'inference', model: row.model, arch: row.arch ?? null, gen: 0, batch: 1 };
  if (row.engine === 'llama.cpp') {
    const seqs = num(st.n_seq) ?? 1;
    s.engine = 'llama.cpp';
    s.weights = (st.weights as WeightFormat | undefined) ?? 'fp16';
    s.kv = KV_TYPE[typeof st.type_k === 'string' ? st.type_k : 'f16'] ?? 'fp16';
    s.batch = seqs;
    s.prompt = Math.round((num(st.n_ctx) ?? 4096) / seqs);
    s.attn = st.flash_attn === true ? 'flash' : 'sdpa';
    s.ngl = num(st.ngl) ?? null;
    s.ubatch = num(st.n_ubatch) ?? null;
  } else {
    const tp = num(st.tp) ?? 1;
    const dtype = DTYPE[String(st.dtype)] ?? 'bf16';
    s.engine = 'vllm';
    s.weights = (st.weights as WeightFormat | undefined) ?? dtype;
    s.kv = dtype === 'fp32' ? 'fp32' : (dtype as KvFormat);
    s.gpu = typeof st.gpu === 'string' ? st.gpu : '';
    s.gpuUtil = num(st.gpu_memory_utilization) ?? 0.9;
    s.tp = tp;
    s.gpus = tp;
    s.prompt = num(st.max_model_len) ?? 2048;
    s.ubatch = num(st.max_num_batched_tokens) ?? null;
  }
  return s;
}

function termBytes(e: Estimate, id: TermId): number {
  return e.terms.filter((t) => t.id === id).reduce((a, t) => a + t.bytes, 0);
}

/** Ours, in bytes (or tokens), for each printed key of a row. */
function oursFor(row: LogRow, s: Scenario, e: Estimate): Partial<Record<string, { component: Component; ours: number; unit: Check['unit'] }>> {
  const p = row.printed;
  if (row.engine === 'llama.cpp') {
    const preset = s.model === 'custom' ? null : findPreset(s.model);
    const arch = (preset?.arch ?? s.arch) as ModelArch;
    const x = { ubatch: s.ubatch ?? 512, cells: s.batch * s.prompt, hidden: arch.hidden, heads: arch.heads, ffn: arch.ffn, vocab: arch.vocab, flash: s.attn === 'flash', outputOnGpu: true };
    const mix = s.weights.startsWith('gguf-') ? s.weights.slice(5) : null;
    const gguf = mix ? ggufBytesFromArch(arch, countParams(arch), mix as Parameters<typeof ggufBytesFromArch>[2]) : null;
    return {
      model_buffer_MiB: { component: 'model-buffer', ours: termBytes(e, 'weights') / MiB, unit: 'MiB' },
      host_model_buffer_MiB: gguf ? { component: 'host-embedding', ours: gguf.parts.embedding / MiB, unit: 'MiB' } : undefined,
      kv_buffer_MiB: { component: 'kv-buffer', ours: termBytes(e, 'kv-cache') / MiB, unit: 'MiB' },
      compute_buffer_MiB: { component: 'compute-buffer', ours: termBytes(e, 'workspace') / MiB, unit: 'MiB' },
      host_compute_buffer_MiB: { component: 'host-compute-buffer', ours: hostComputeBuffer(x) / MiB, unit: 'MiB' },
      output_buffer_MiB: { component: 'output-buffer', ours: outputBuffer(arch.vocab, s.batch) / MiB, unit: 'MiB' },
    };
  }
  const gpu = resolveGpu(s.gpu);
  const weights = termBytes(e, 'weights') / GiB;
  return {
    weights_GiB: { component: 'weights', ours: weights, unit: 'GiB' },
    activation_GiB: { component: 'activation', ours: termBytes(e, 'activations') / GiB, unit: 'GiB' },
    peak_torch_GiB: { component: 'activation', ours: termBytes(e, 'activations') / GiB, unit: 'GiB' },
    kv_cache_GiB: { component: 'kv-cache', ours: termBytes(e, 'kv-cache') / GiB, unit: 'GiB' },
    kv_tokens: printedKvTokens(p) !== undefined ? { component: 'kv-tokens', ours: e.engine?.kvTokens ?? 0, unit: 'tokens' } : undefined,
    total_GiB: gpu ? { component: 'total-memory', ours: vllmVisibleTotal(gpu.capacityBytes) / GiB, unit: 'GiB' } : undefined,
  };
}

/** KV tokens a vLLM log states: printed directly, or GPU blocks × block size (vLLM default 16). */
function printedKvTokens(p: LogRow['printed']): number | undefined {
  const blocks = num(p.gpu_blocks);
  return num(p.kv_tokens) ?? (blocks !== undefined ? blocks * (num(p.block_size) ?? 16) : undefined);
}

/** The printed value compared for a key (peak_torch is compared as peak − weights). */
function printedFor(row: LogRow, key: string): number | undefined {
  const p = row.printed;
  if (key === 'peak_torch_GiB') return p.activation_GiB === undefined && num(p.peak_torch_GiB) !== undefined && num(p.weights_GiB) !== undefined ? p.peak_torch_GiB - p.weights_GiB : undefined;
  if (key === 'kv_tokens') return printedKvTokens(p);
  return num(p[key]);
}

/** Every comparison a row supports; throws only if the row maps to an invalid scenario. */
export function checkRow(row: LogRow): Check[] {
  const s = logScenario(row);
  const r = estimate(s);
  if (!r.ok) throw new Error(`${row.id}: ${r.errors.map((x) => x.message).join('; ')}`);
  const ours = oursFor(row, s, r.value);
  const checks: Check[] = [];
  for (const [key, o] of Object.entries(ours)) {
    const printed = printedFor(row, key);
    if (!o || printed === undefined) continue;
    const diff = o.ours - printed;
    const tol = TOLERANCES[o.component];
    const errorPct = printed !== 0 ? (diff / printed) * 100 : 0;
    const within = tol.abs !== undefined ? Math.abs(diff) <= tol.abs : Math.abs(errorPct) <= (tol.pct ?? 0);
    checks.push({ row: row.id, engine: row.engine, component: o.component, unit: o.unit, printed, ours: o.ours, diff, errorPct, within, gated: !row.informational, source: row.source });
  }
  return checks;
}

/** All rows' checks. */
export function runtimeLogChecks(rows: readonly LogRow[] = RUNTIME_LOG_ROWS): Check[] {
  return rows.flatMap(checkRow);
}

/**
 * Per engine and component over the gated checks: count, median and max |error| %, tolerance,
 * failures; `informational` counts the ungated checks left out.
 */
export function errorSummary(
  checks: readonly Check[],
): { engine: string; component: Component; n: number; medianAbsPct: number; maxAbsPct: number; tolerance: string; failures: number; informational: number }[] {
  const groups = new Map<string, Check[]>();
  for (const c of checks) {
    const key = `${c.engine}|${c.component}`;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()].map((all) => {
    const { engine, component } = all[0];
    const cs = all.filter((c) => c.gated);
    const errs = (cs.length > 0 ? cs : all).map((c) => Math.abs(c.errorPct));
    const tol = TOLERANCES[component];
    return {
      engine,
      component,
      n: cs.length,
      medianAbsPct: quantile(errs, 0.5),
      maxAbsPct: Math.max(...errs),
      tolerance: tol.abs !== undefined ? `±${tol.abs} ${all[0].unit}` : `±${tol.pct} %`,
      failures: cs.filter((c) => !c.within).length,
      informational: all.length - cs.length,
    };
  });
}
