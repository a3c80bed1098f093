/**
 * Our own GPU measurements (fixtures/measured-gpu.json, made by tools/measure/measure_trainer.py:
 * Hugging Face Trainer runs on one H200, torch 2.11 / transformers 5.17 / peft 0.21) mapped to
 * scenarios and scored on both totals PyTorch reports: max_memory_allocated and max_memory_reserved.
 *
 * Mapping (what the script runs → scenario keys):
 * - the preset's own config (the script builds the model from data/models.json);
 * - precision 'bf16': weights loaded in bf16, Trainer bf16=True → precision bf16, weights bf16,
 *   autocast on (accelerate wraps the forward in autocast); 'amp-bf16': fp32 weights, bf16=True →
 *   precision amp-bf16, weights fp32;
 * - Trainer's default optimizer in transformers 5.17, adamw_torch_fused → adamw, optim-impl fused;
 * - LoRA: r, lora_alpha 2r, lora_dropout, target_modules ('all-linear' or named projections);
 * - lengths 'varied': lognormal with mean seq/2 and σ len_spread, padded per batch → lengths varied,
 *   len-mean auto (seq/2), len-spread; rows run with expandable_segments are not scored on reserved
 *   (no scenario key for the allocator settings yet) and say so.
 * Pure: no DOM, no Node APIs.
 */
import data from './fixtures/measured-gpu.json';
import { defaultScenario } from '../core/scenario/schema';
import { estimateWithReplay } from '../core/timeline';
import type { LoraTarget, Scenario } from '../core/types';

export interface GpuRunSettings {
  preset: string;
  method: 'lora' | 'full';
  seq: number;
  batch: number;
  ckpt: boolean;
  lengths: 'fixed' | 'varied';
  steps: number;
  precision: 'bf16' | 'amp-bf16';
  targets: string;
  rank: number;
  dropout: number;
  len_mean: number | null;
  len_spread: number;
  attn: 'sdpa' | 'eager';
}

export interface GpuRun {
  id: string;
  settings: GpuRunSettings;
  alloc_conf: string | null;
  measured: { allocated: number; reserved: number; per_step: [number, number][] };
}

export const GPU_RUNS: readonly GpuRun[] = data.rows as unknown as GpuRun[];
export const GPU_RUN_ENV: Readonly<Record<string, unknown>> = data.env;

const ALL_LINEAR: LoraTarget[] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

/** The scenario a run measured. */
export function gpuRunScenario(run: GpuRun): Scenario {
  const st = run.settings;
  const amp = st.precision === 'amp-bf16';
  const s: Scenario = {
    ...defaultScenario(),
    model: st.preset,
    mode: 'training',
    method: st.method,
    precision: st.precision,
    weights: amp ? 'fp32' : 'bf16',
    autocast: 'on',
    optimizer: 'adamw',
    optimImpl: 'fused',
    gradCkpt: st.ckpt ? 'full' : 'none',
    attn: st.attn,
    batch: st.batch,
    seq: st.seq,
    lengths: st.lengths,
    lenSpread: st.len_spread,
    lenMean: st.len_mean,
  };
  if (st.method === 'lora') {
    s.loraRank = st.rank;
    s.loraDropout = st.dropout;
    s.loraTargets = st.targets === 'all-linear' ? [...ALL_LINEAR] : (st.targets.split(',') as LoraTarget[]);
  }
  return s;
}

export interface GpuRunScore {
  run: GpuRun;
  /** predicted totals, bytes */
  allocated: number;
  reserved: number;
  /** signed % errors; reserved null where the run's allocator settings are not modelled */
  allocatedErr: number;
  reservedErr: number | null;
}

const pct = (predicted: number, measured: number): number => (100 * (predicted - measured)) / measured;

/** Every run scored (the varied-length ones through the replay); runs that do not estimate are left out. */
export function scoreGpuRuns(): GpuRunScore[] {
  const out: GpuRunScore[] = [];
  for (const run of GPU_RUNS) {
    const r = estimateWithReplay(gpuRunScenario(run));
    if (!r.ok) continue;
    const { allocatedBytes, reservedBytes } = r.value;
    out.push({
      run,
      allocated: allocatedBytes,
      reserved: reservedBytes,
      allocatedErr: pct(allocatedBytes, run.measured.allocated),
      reservedErr: run.alloc_conf ? null : pct(reservedBytes, run.measured.reserved),
    });
  }
  return out;
}
