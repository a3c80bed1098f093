/**
 * Maps a published measurement (fixtures/measured-dev.json, the published rows shipped with the project) to a
 * Scenario and to the estimate total it measured. Shared by the validation test and the page's
 * Accuracy view, so both always score the same rows the same way. Pure: no DOM, no Node APIs.
 *
 * Mapping rules:
 * - Architecture: the row's own config values as a 'custom' model (family from the model name),
 *   so the check does not depend on the preset list.
 * - Qwen2.5 speed benchmark: HF generate, flash-attention 2, batch 1, prompt = seq_in,
 *   gen = seq_out; bf16 / GPTQ / AWQ weights with a 16-bit KV cache. Multi-GPU rows use
 *   device_map="auto" (a layer split) and publish the SUM of max_memory_allocated over GPUs:
 *   compared with the one-GPU peak of the whole model plus (gpus − 1) further activation peaks,
 *   since every GPU runs its own layers' transients.
 * - torchtune rows: the stated technique stack (compile, chunked CE, optimizer in backward,
 *   activation offloading) plus the default config at the README's commit (torchtune.ts); rows
 *   whose settings are unknown are skipped with the reason.
 * - HF-guide rows: the stated recipe; an unknown prompt length is skipped with the reason.
 * - HF Trainer guide rows (2022, torch < 2.0, where optimizer/module zero_grad defaulted to
 *   set_to_none=False): grad-zero = zeros, grad-accum = gradient_accumulation_steps,
 *   batch = per_device_train_batch_size (the micro-batch).
 * - Units: "GB" rows of the Qwen script are GiB (bytes / 1024³); torchtune GiB; nvidia-smi MiB.
 * - nvidia-smi rows state the CUDA context of their machine (cuda_context_MB): compared with
 *   reservedBytes + that context instead of our 500 MiB default (deviceBytes).
 */
import type { Message, Scenario, WeightFormat } from '../core/types';
import { defaultScenario } from '../core/scenario/schema';
import { torchtuneScenario } from './torchtune';
import { GiB, MiB } from '../core/units';

export interface Row {
  id: string;
  source: string;
  model: string;
  arch: Record<string, unknown>;
  mode: string;
  precision: string;
  batch: number | null;
  seq_in: number | null;
  seq_out: number | null;
  settings: Record<string, unknown>;
  measured_value: number;
  measured_unit: string;
  measured_what: string;
  notes?: string;
}

export interface Mapped {
  scenario: Scenario;
  /** measured bytes */
  measured: number;
  total: 'allocated' | 'device';
  /** GPUs whose peaks the measurement sums */
  sumGpus: number;
  /** the machine's own CUDA context when the row states it */
  contextBytes: number | null;
  source: string;
  mode: string;
}

/** Why a row is not scored: a stable code (translated by the page) with the English text. */
export type SkipReason = Message;

export type MapResult = { ok: true; value: Mapped } | { ok: false; reason: SkipReason };

const skip = (code: string, text: string, params?: Record<string, string>): MapResult => ({ ok: false, reason: { code, text, ...(params ? { params } : {}) } });

/** Short name of the publication a row comes from (the full citation is `row.source`). */
export function sourceLabel(row: Row): string {
  const s = row.source;
  if (s.includes('Qwen2.5')) return 'Qwen2.5 speed benchmark';
  if (s.includes('torchtune')) return 'torchtune';
  if (s.includes('llm_tutorial_optimization')) return 'HF optimize-llm guide';
  if (s.includes('model_memory_anatomy') || s.includes('perf_train_gpu_one')) return 'HF Trainer guide (V100)';
  return s.split(/[ ,(]/)[0];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function unitBytes(unit: string): number | null {
  const u = unit.toLowerCase();
  if (u.startsWith('gb (script divides bytes by 1024^3')) return GiB;
  if (u.startsWith('gib')) return GiB;
  if (u.startsWith('mb (nvml used//1024^2')) return MiB;
  return null;
}

function familyOf(row: Row): string {
  const m = row.model.toLowerCase();
  if (m.includes('qwen')) return 'qwen2';
  if (m.includes('bert')) return 'bert';
  if (m.includes('octocoder')) return 'gpt_bigcode';
  return 'llama';
}

function archOf(row: Row): Scenario['arch'] {
  const a = row.arch;
  const family = familyOf(row);
  const heads = num(a.num_attention_heads) ?? 1;
  const hidden = num(a.hidden_size) ?? 1;
  const plain = family === 'bert' || family === 'gpt_bigcode';
  return {
    family,
    hidden,
    layers: num(a.num_layers),
    heads,
    kvHeads: num(a.num_key_value_heads) ?? heads,
    headDim: num(a.head_dim) ?? hidden / heads,
    ffn: num(a.intermediate_size),
    vocab: num(a.vocab_size),
    gatedMlp: !plain,
    norm: plain ? 'layernorm' : 'rmsnorm',
    normsPerLayer: 2,
    tiedEmbeddings: a.tie_word_embeddings !== false,
    qkvBias: family === 'qwen2' || plain,
    oBias: plain,
    mlpBias: plain,
    ...(family === 'bert' ? { positionEmbeddings: num(a.max_position_embeddings) ?? 512, typeVocab: 2, pooler: true } : {}),
    ...(family === 'gpt_bigcode' ? { positionEmbeddings: 8192 } : {}),
  };
}

function qwenWeights(precision: string): WeightFormat | null {
  if (precision === 'bf16') return 'bf16';
  for (const f of ['gptq-int8', 'gptq-int4', 'awq-int4'] as const) if (precision.startsWith(f)) return f;
  return null;
}

/** Row → scenario + measured total, or the reason it cannot be mapped. */
export function mapRow(row: Row): MapResult {
  const unit = unitBytes(row.measured_unit);
  if (unit === null) return skip('unit', `unit '${row.measured_unit.slice(0, 30)}' not decoded`, { unit: row.measured_unit.slice(0, 30) });
  const st = row.settings;
  const base: Scenario = { ...defaultScenario(), model: 'custom', arch: archOf(row), gpu: '' };
  const gpus = num(st.num_gpus) ?? 1;
  const measured = row.measured_value * unit;
  if (row.source.includes('Qwen2.5')) {
    const weights = qwenWeights(row.precision);
    if (!weights || row.seq_in === null || row.seq_out === null) return skip('precision', 'precision not mapped');
    const scenario: Scenario = {
      ...base,
      mode: 'inference',
      engine: 'transformers',
      weights,
      kv: weights === 'bf16' ? 'bf16' : 'fp16',
      attn: 'flash',
      batch: 1,
      prompt: row.seq_in,
      gen: row.seq_out,
      gpus: 1,
      pp: 1,
    };
    return { ok: true, value: { scenario, measured, total: 'allocated', sumGpus: gpus, contextBytes: null, source: sourceLabel(row), mode: weights } };
  }
  if (row.source.includes('torchtune')) {
    const t = torchtuneScenario(row);
    if (!t.ok) return skip(t.code, t.text);
    const scenario: Scenario = { ...base, ...t.scenario };
    return { ok: true, value: { scenario, measured, total: 'allocated', sumGpus: 1, contextBytes: null, source: sourceLabel(row), mode: t.method } };
  }
  if (row.source.includes('llm_tutorial_optimization')) {
    if (row.seq_in === null) return skip('prompt-unknown', 'long-prompt length not printed');
    const weights: WeightFormat = row.precision.startsWith('int8') ? 'bnb-int8' : row.precision.startsWith('int4') ? 'fp4' : 'bf16';
    const scenario: Scenario = { ...base, mode: 'inference', engine: 'transformers', weights, kv: 'bf16', attn: 'eager', batch: 1, prompt: row.seq_in, gen: row.seq_out ?? 0 };
    return { ok: true, value: { scenario, measured, total: 'allocated', sumGpus: 1, contextBytes: null, source: sourceLabel(row), mode: weights } };
  }
  if (row.source.includes('model_memory_anatomy') || row.source.includes('perf_train_gpu_one')) {
    const context = (num(st.cuda_context_MB) ?? 0) * MiB;
    if (row.mode.startsWith('model load')) {
      const scenario: Scenario = { ...base, mode: 'inference', engine: 'transformers', weights: 'fp32', kv: 'fp32', attn: 'sdpa', batch: 1, prompt: 1, gen: 0 };
      return { ok: true, value: { scenario, measured, total: 'device', sumGpus: 1, contextBytes: context, source: sourceLabel(row), mode: 'load' } };
    }
    const amp = row.precision.startsWith('fp16');
    const optim = typeof st.optim === 'string' ? st.optim : 'adamw';
    const optimizer = optim === 'adafactor' ? 'adafactor' : optim.includes('8bit') ? 'adamw-8bit' : 'adamw';
    const scenario: Scenario = {
      ...base,
      mode: 'training',
      method: 'full',
      weights: 'fp32',
      precision: amp ? 'amp-fp16' : 'fp32',
      optimizer,
      attn: 'eager',
      gradCkpt: st.gradient_checkpointing ? 'full' : 'none',
      batch: row.batch ?? 1,
      seq: row.seq_in ?? 512,
      // 2022 runs on torch < 2.0: zero_grad(set_to_none=False) kept gradients allocated between steps
      gradAccum: num(st.gradient_accumulation_steps) ?? 1,
      gradZero: 'zeros',
      // HF Trainer's 2022 default optim adamw_hf (transformers.optimization.AdamW) steps one tensor at a time
      optimImpl: 'for-loop',
    };
    return { ok: true, value: { scenario, measured, total: 'device', sumGpus: 1, contextBytes: context, source: sourceLabel(row), mode: 'full-ft' } };
  }
  return skip('source', 'source not mapped');
}
