/**
 * "How to make it fit": candidate changes to a scenario, each re-estimated with the core's
 * estimate() (never a guessed saving), ranked: changes that make it fit first (the gentlest, i.e.
 * the one leaving the highest total that still fits, on top), then the others by new total.
 */
import { bytesPerParamNominal as bytesW, kvBytesPerElement as bytesKv } from '../../core/formats/weights';
import { fitsWithin } from '../../core/fit-rule';
import type { Estimate, KvFormat, Scenario, WeightFormat } from '../../core/types';
import type { MessageKey } from '../i18n/en';
import { optionReason } from './compat';
import { modelReads } from '../../core/scenario/model-kind';
import { ruleArch } from '../../core/scenario/rules';
import { estimateOf } from './use-estimate';
import { isDiffusionModel } from '../../core/diffusion/presets';

export interface Fix {
  key: MessageKey;
  params: Record<string, string | number>;
  scenario: Scenario;
  deviceBytes: number;
  fits: boolean;
}

/** Lower-precision weight formats worth trying, most faithful first. */
const WEIGHT_STEPS: WeightFormat[] = ['fp8', 'bnb-int8', 'awq-int4', 'gptq-int4', 'nf4', 'gguf-q8_0', 'gguf-q4_k_m'];
const KV_STEPS: KvFormat[] = ['fp8', 'int8', 'q8_0', 'int4', 'q4_0'];

function allowed(s: Scenario, prop: keyof Scenario, v: string): boolean {
  return !optionReason(s, prop, v);
}

/** Candidate changes (not yet estimated). */
export function candidates(s: Scenario): Omit<Fix, 'deviceBytes' | 'fits'>[] {
  const out: Omit<Fix, 'deviceBytes' | 'fits'>[] = [];
  const add = (key: MessageKey, params: Record<string, string | number>, p: Partial<Scenario>) => out.push({ key, params, scenario: { ...s, ...p } });
  const training = s.mode === 'training';
  // an encoder-only (embedding) model has no KV cache to shrink (scenario/model-kind.ts)
  const generates = modelReads('generate', ruleArch(s));
  const curW = bytesW(s.weights);
  if (!training || s.method === 'lora') {
    for (const w of WEIGHT_STEPS) {
      if (bytesW(w) < curW && allowed(s, 'weights', w)) add('fix.weights', { value: w }, { weights: w });
    }
  }
  if (!training) {
    if (generates) for (const k of KV_STEPS) if (bytesKv(k) < bytesKv(s.kv) && allowed(s, 'kv', k)) add('fix.kv', { value: k }, { kv: k });
    for (const n of [2, 4, 8]) if (n > s.tp) add('fix.tp', { n }, { tp: n, gpus: Math.max(s.gpus, n * s.pp) });
  } else {
    if (s.method === 'full' || s.method === 'freeze') {
      add('fix.lora', {}, { method: 'lora' });
      add('fix.qlora', {}, { method: 'qlora', weights: 'nf4' });
    } else if (s.method === 'lora') add('fix.qlora', {}, { method: 'qlora', weights: 'nf4' });
    if (s.gradCkpt !== 'full') add('fix.ckpt', {}, { gradCkpt: 'full' });
    if (s.optimizer === 'adamw') add('fix.optim8', {}, { optimizer: 'adamw-8bit' });
    // the same maths with fewer temporaries or buffers (each re-estimated below; dropped if no saving)
    if (s.optimImpl !== 'fused') add('fix.fusedAdam', {}, { optimImpl: 'fused' });
    if (s.optimStep !== 'in-backward' && allowed(s, 'optimStep', 'in-backward')) add('fix.optimInBwd', {}, { optimStep: 'in-backward' });
    if (s.lossChunks === 1) add('fix.chunkedLoss', { n: 8 }, { lossChunks: 8 });
    if (s.actOffload !== 'cpu' && allowed(s, 'actOffload', 'cpu')) add('fix.actOffload', {}, { actOffload: 'cpu' });
    for (const n of [2, 4, 8]) if (s.zero !== 3 || n > s.gpus) add('fix.zero3', { n }, { zero: 3, gpus: Math.max(n, s.gpus) });
  }
  // when no single change is enough: the usual stack of savings at once
  if (training) {
    add('fix.allTraining', {}, { method: 'qlora', weights: 'nf4', gradCkpt: 'full', optimizer: 'paged-adamw-8bit', batch: 1 });
  } else {
    const w4 = (['awq-int4', 'nf4', 'gguf-q4_k_m'] as WeightFormat[]).find((w) => allowed(s, 'weights', w) && bytesW(w) < curW);
    const kv8 = KV_STEPS.find((k) => bytesKv(k) < bytesKv(s.kv) && allowed(s, 'kv', k));
    if (w4 && kv8 && generates) add('fix.allInference', { weights: w4, kv: kv8 }, { weights: w4, kv: kv8, batch: 1 });
  }
  // image pipelines: diffusers enable_model_cpu_offload keeps only the running component on the GPU
  if (isDiffusionModel(s.model) && s.offloadModel === 'off') add('fix.offloadModel', {}, { offloadModel: 'on' });
  if (s.batch > 1) {
    add('fix.batch', { value: 1 }, { batch: 1 });
    if (s.batch > 2) add('fix.batch', { value: Math.floor(s.batch / 2) }, { batch: Math.floor(s.batch / 2) });
  }
  return out;
}

/**
 * Candidates that are valid and lower the device total (or make a scenario that does not fit
 * fit: vLLM's pool is sized to the device, so a smaller KV type changes what it holds, not its
 * size), estimated, ranked (fitting first). Fit is the core's one rule, fitsWithin. Changes that
 * add GPUs (tensor parallel, ZeRO-3 across n) are offered only when a GPU is chosen and nothing
 * on the current GPU count makes it fit.
 */
export function rankFixes(s: Scenario, capacityBytes: number | null, limit = 8): Fix[] {
  const fitsOn = (x: Scenario, e: Estimate) => capacityBytes !== null && fitsWithin(x, e, capacityBytes);
  const base = estimateOf(s);
  const now = base.ok ? base.value.deviceBytes : Infinity;
  const baseFits = base.ok && fitsOn(s, base.value);
  let fixes: Fix[] = [];
  for (const c of candidates(s)) {
    const r = estimateOf(c.scenario);
    if (!r.ok) continue;
    const fits = fitsOn(c.scenario, r.value);
    if (r.value.deviceBytes >= now && (baseFits || !fits)) continue;
    fixes.push({ ...c, deviceBytes: r.value.deviceBytes, fits });
  }
  // more GPUs only when a GPU is chosen and no change on the GPUs already there reaches it
  const moreGpus = (f: Fix) => f.scenario.gpus > s.gpus;
  const reachable = fixes.some((f) => f.fits && !moreGpus(f));
  if (capacityBytes === null || reachable) fixes = fixes.filter((f) => !moreGpus(f));
  // fitting changes first, the gentlest (highest total that still fits) on top; then the rest, lowest total first
  fixes.sort((a, b) => Number(b.fits) - Number(a.fits) || (a.fits ? b.deviceBytes - a.deviceBytes : a.deviceBytes - b.deviceBytes));
  return fixes.slice(0, limit);
}
