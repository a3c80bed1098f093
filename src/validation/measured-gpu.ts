/**
 * Our own GPU runs (fixtures/measured-gpu.json, tools/measure/measure_trainer.py on one H200; t026 on one H100,
 * docs/measuring.md "Runs kept in the repository") mapped to scenarios and scored: peak
 * allocated and peak reserved, measured against estimateWithReplay (the replayed reserved memory
 * for lengths=varied). Pure: no DOM, no Node APIs.
 *
 * Mapping (measure_trainer.py `run`): the preset by its id; HF Trainer with `bf16=True` over a
 * bf16 model (precision bf16) or an fp32 one (amp-bf16); Trainer's default optimizer in
 * transformers 5 is adamw_torch_fused (optim-impl fused); `gradient_checkpointing` with
 * use_reentrant=False (grad-ckpt full); gradient_accumulation_steps (grad-accum); PEFT LoRA over `all-linear` (every projection) or the
 * listed targets; lengths lognormal with the scenario's own defaults (mean seq/2, σ 0.6), so the
 * draw's ORDER differs from the run's (the Trainer shuffles); PYTORCH_CUDA_ALLOC_CONF → alloc-conf;
 * `bf16=True` wraps the forward in autocast even over bf16 weights (autocast on, the default).
 */
import fixture from './fixtures/measured-gpu.json';
import { defaultScenario } from '../core/scenario/schema';
import { parseHfConfig } from '../core/model/config';
import { estimateWithReplay } from '../core/timeline';
// Trainer runs: estimate() prices them once this is loaded (core/training/provider.ts)
import '../core/training/builders';
import type { Estimate, Scenario } from '../core/types';
import { signedErrPct } from './score';

export interface GpuRow {
  id: string;
  settings: {
    preset: string;
    method: string;
    seq: number;
    batch: number;
    ckpt: boolean;
    lengths: string;
    precision: string;
    targets: string;
    rank: number;
    dropout: number;
    len_mean: number | null;
    len_spread: number;
    /** optimizer steps run */
    steps: number;
    attn: string;
    /** gradient_accumulation_steps (absent: 1) */
    accum?: number;
    /**
     * torch.utils.checkpoint's reentrant variant (transformers 4.x's default; absent: the other).
     * It is not a scenario key: t030 ran t001 with it and allocated the same bytes.
     */
    reentrant?: boolean;
    /** the config.json the model was built from, for a model the catalogue lacks (pasted: model=custom) */
    hf_config?: Record<string, unknown>;
  };
  alloc_conf: string | null;
  /** the seed of the drawn sample lengths (measure_trainer.py MEASURE_SEED) */
  length_seed: number;
  /** the row's own card when it is not the fixture's env.gpu */
  gpu?: string;
  /** per_step: running [max allocated, max reserved] after each step; step_lengths: each step's padded length, in the order run (when recorded) */
  measured: { allocated: number; reserved: number; per_step: [number, number][]; step_lengths?: number[] };
}

export const GPU_ROWS = fixture.rows as unknown as GpuRow[];
/** The machine and library versions of the runs. */
export const GPU_ENV: Readonly<Record<string, string | number>> = fixture.env;

const ALL_LINEAR: Scenario['loraTargets'] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

/**
 * A row's precision as the script loads and trains the model: bf16 weights under the Trainer's
 * bf16 autocast; fp32 weights under it (amp-bf16); fp16 weights under the Trainer's fp16 autocast
 * and loss scaler (the script's 'amp-fp16': a 16-bit model under autocast, as the bf16 rows, the
 * adapters fp32); fp32 weights, no autocast.
 */
const PRECISION: Record<string, Pick<Scenario, 'weights' | 'precision'>> = {
  bf16: { weights: 'bf16', precision: 'bf16' },
  'amp-bf16': { weights: 'fp32', precision: 'amp-bf16' },
  'amp-fp16': { weights: 'fp16', precision: 'fp16' },
  fp32: { weights: 'fp32', precision: 'fp32' },
};

/** `base` with a pasted config.json as its model (model=custom), as the page takes one; null when it does not parse. */
export function withConfig(base: Scenario, hfConfig: Record<string, unknown> | undefined): Scenario | null {
  if (!hfConfig) return base;
  const arch = parseHfConfig(hfConfig);
  return arch.ok ? { ...base, model: 'custom', arch: arch.value } : null;
}

/** The scenario a row ran: its preset, or its config.json pasted (a fixture whose config does not parse is an error). */
export function gpuScenario(row: GpuRow): Scenario {
  const sc = withConfig(rowScenario(row), row.settings.hf_config);
  if (!sc) throw new Error(`${row.id}: its hf_config does not parse`);
  return sc;
}

function rowScenario(row: GpuRow): Scenario {
  const st = row.settings;
  return {
    ...defaultScenario(),
    model: st.preset,
    mode: 'training',
    method: st.method === 'full' ? 'full' : 'lora',
    ...PRECISION[st.precision],
    autocast: 'on',
    optimizer: 'adamw',
    optimImpl: 'fused',
    gradCkpt: st.ckpt ? 'full' : 'none',
    gradAccum: st.accum ?? 1,
    attn: st.attn === 'eager' ? 'eager' : 'sdpa',
    seq: st.seq,
    batch: st.batch,
    lengths: st.lengths === 'varied' ? 'varied' : 'fixed',
    // the script drew from mean seq/2 where it says null: the run's mean is known, not 'auto'
    lenMean: st.len_mean ?? st.seq / 2,
    lenSpread: st.len_spread,
    loraRank: st.rank,
    loraDropout: st.dropout,
    loraTargets: st.targets === 'all-linear' ? [...ALL_LINEAR] : (st.targets.split(',') as Scenario['loraTargets']),
    allocConf: row.alloc_conf?.includes('expandable_segments:True') ? 'expandable' : 'default',
    gpu: row.gpu?.includes('H100') ? 'h100-sxm' : 'h200-sxm',
  };
}

export interface GpuScore {
  id: string;
  row: GpuRow;
  varied: boolean;
  allocConf: Scenario['allocConf'];
  measuredAllocated: number;
  measuredReserved: number;
  predictedAllocated: number;
  predictedReserved: number;
  /** 100·(predicted − measured)/measured */
  allocatedErrPct: number;
  reservedErrPct: number;
  /** lengths=varied: the estimate's reserved bytes at the 10th / 90th percentile of the drawn orders */
  orderSpread?: Estimate['orderSpread'];
}

/** Every row scored (rows the estimate refuses are left out). */
export function scoreGpuRows(rows: readonly GpuRow[] = GPU_ROWS): GpuScore[] {
  const out: GpuScore[] = [];
  for (const row of rows) {
    const sc = gpuScenario(row);
    const e = estimateWithReplay(sc);
    if (!e.ok) continue;
    const m = row.measured;
    out.push({
      id: row.id,
      row,
      varied: row.settings.lengths === 'varied',
      allocConf: sc.allocConf,
      measuredAllocated: m.allocated,
      measuredReserved: m.reserved,
      predictedAllocated: e.value.allocatedBytes,
      predictedReserved: e.value.reservedBytes,
      allocatedErrPct: signedErrPct(e.value.allocatedBytes, m.allocated),
      reservedErrPct: signedErrPct(e.value.reservedBytes, m.reserved),
      ...(e.value.orderSpread ? { orderSpread: e.value.orderSpread } : {}),
    });
  }
  return out;
}
