/**
 * Every term's shown formula, read back and evaluated from its shown values, gives its bytes
 * (issue #11 §3 "Formulas computed, not written"). Walks inference on every engine, training
 * (full / LoRA / QLoRA / freeze, ZeRO and FSDP, offload, tp / pp, accumulation, in-backward
 * step, chunked loss, compile, activation offload, modules_to_save, varied lengths, a guessed
 * shape) and layer-list networks.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { estimateWithReplay } from '../../../src/core/timeline';
import { estimateNetwork, type NetworkOptions } from '../../../src/core/layers/estimate';
import { NETWORK_PRESETS } from '../../../src/core/layers/presets';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Scenario, Term } from '../../../src/core/types';
import { evaluateFormula } from './parse-formula';

const LLAMA2 = 'meta-llama/Llama-2-7b-hf';

const INFERENCE: Partial<Scenario>[] = [
  { model: LLAMA2, weights: 'fp16', kv: 'fp16', prompt: 3000, gen: 1096, batch: 2 },
  { model: LLAMA2, attn: 'eager', prompt: 4096, batch: 4 },
  { model: LLAMA2, weights: 'fp32', kv: 'fp32', logitsPath: 'upcast-in-model', prompt: 512 },
  { model: LLAMA2, logitsPath: 'remote-code', prompt: 1000, gen: 0 },
  { model: LLAMA2, tp: 2, gpus: 2 },
  { model: LLAMA2, pp: 2, gpus: 2 },
  { model: 'meta-llama/Llama-3.1-70B', tp: 4, pp: 2, gpus: 8 },
  { model: LLAMA2, split: 'layers', gpus: 3 },
  { model: 'meta-llama/Llama-3.1-8B', split: 'layers', gpus: 2, gpu: 'rtx-4090' },
  { model: LLAMA2, weights: 'nf4', bnbCompute: 'fp32', prompt: 300, batch: 3 },
  { model: LLAMA2, weights: 'int8' },
  { model: 'Qwen/Qwen2.5-0.5B', weights: 'awq-int4' },
  { model: 'Qwen/Qwen2.5-7B', weights: 'gptq-int4', kv: 'int8' },
  { model: 'google/gemma-2-9b', prompt: 8000, gen: 500 },
  { model: 'deepseek-ai/DeepSeek-V3', weights: 'fp8', tp: 8, gpus: 8, prompt: 512 },
  { model: 'mistralai/Mixtral-8x7B-v0.1', attn: 'eager', prompt: 2048 },
  { model: 'google-bert/bert-base-uncased', prompt: 512, gen: 0 },
  { model: 'google-t5/t5-base', prompt: 512, gen: 64 },
  { model: '', params: 7e9, prompt: 1024 },
  ...(['rtx-3090', 'h100-sxm', ''] as const).flatMap((gpu) => [
    { engine: 'vllm' as const, model: 'meta-llama/Llama-3.1-8B', gpu },
    { engine: 'vllm' as const, model: 'meta-llama/Llama-3.1-8B', gpu, ubatch: 512, batch: 64, gpuUtil: 0.5 },
  ]),
  { engine: 'vllm', model: 'meta-llama/Llama-3.1-70B', tp: 4, pp: 2, gpus: 8, gpu: 'h100-sxm' },
  { engine: 'vllm', model: 'google/gemma-2-9b', gpu: 'a100-80gb-sxm4', kv: 'fp8' },
  { engine: 'vllm', model: 'deepseek-ai/DeepSeek-V3', weights: 'fp8', tp: 8, gpus: 8, gpu: 'h200-sxm' },
  { engine: 'vllm', model: 'Qwen/Qwen2.5-0.5B', gpu: '1GiB' },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q4_k_m', kv: 'fp16', attn: 'flash' },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q8_0', kv: 'q8_0', attn: 'sdpa', ngl: 20, prompt: 30000 },
  { engine: 'llama.cpp', model: 'google/gemma-2-9b', weights: 'gguf-q4_k_m', kv: 'q4_0', attn: 'flash', batch: 4 },
  { engine: 'llama.cpp', model: 'Qwen/Qwen2.5-3B', weights: 'gguf-q6_k', kv: 'fp16', ngl: 36 },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q4_k_m', kv: 'fp16', gpus: 2, tensorSplit: [3, 1] },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q4_k_m', kv: 'fp16', gpus: 3, ngl: 20 },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'fp16', kv: 'fp16', gpus: 2, tensorSplit: [1, 3] },
  { engine: 'llama.cpp', model: 'deepseek-ai/DeepSeek-V3', weights: 'gguf-q2_k', kv: 'fp16', attn: 'flash' },
  // image generation (core/diffusion): CFG, the fp32 VAE upcast, eager scores, offload, Flux tokens
  { model: 'runwayml/stable-diffusion-v1-5', weights: 'fp16', attn: 'eager', batch: 3 },
  { model: 'stabilityai/stable-diffusion-xl-base-1.0', weights: 'fp16', resolution: 1024, batch: 2 },
  { model: 'stabilityai/stable-diffusion-xl-base-1.0', offloadModel: 'on', cfg: 'off', resolution: 768 },
  { model: 'black-forest-labs/FLUX.1-dev', resolution: 1360, batch: 2 },
  { model: 'black-forest-labs/FLUX.1-schnell', weights: 'fp32', offloadModel: 'on', cfg: 'on' },
];

const TRAINING: Partial<Scenario>[] = [
  { model: LLAMA2, precision: 'fp32', optimizer: 'adamw', seq: 512 },
  { model: LLAMA2, precision: 'amp-bf16', attn: 'eager', seq: 1024 },
  { model: LLAMA2, precision: 'bf16', gradCkpt: 'full', seq: 4096 },
  { model: LLAMA2, precision: 'amp-fp16', gradCkpt: 'selective', gradAccum: 4 },
  { model: LLAMA2, method: 'lora', loraTargets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'], loraRank: 64, loraDropout: 0.1 },
  { model: LLAMA2, method: 'lora', loraSave: 'embed,head', adapterDtype: 'base', precision: 'bf16' },
  { model: LLAMA2, method: 'qlora', weights: 'nf4', gradCkpt: 'full', optimizer: 'paged-adamw-8bit' },
  { model: LLAMA2, method: 'qlora', weights: 'nf4', bnbCompute: 'bf16', precision: 'bf16', loraSave: 'head' },
  { model: LLAMA2, method: 'lora', weights: 'gptq-int4' },
  { model: LLAMA2, method: 'freeze' },
  { model: LLAMA2, gpus: 8, zero: 1 },
  { model: LLAMA2, gpus: 8, zero: 2, dsOverlapComm: 'on' },
  { model: LLAMA2, gpus: 8, zero: 2, offload: 'optimizer' },
  { model: LLAMA2, gpus: 8, zero: 3, gradCkpt: 'full' },
  { model: LLAMA2, gpus: 8, zero: 3, offload: 'params', precision: 'fp32' },
  { model: LLAMA2, gpus: 8, zero: 2, zeroImpl: 'fsdp' },
  { model: LLAMA2, gpus: 8, zero: 3, zeroImpl: 'fsdp', method: 'lora' },
  { model: LLAMA2, gpus: 4 },
  { model: 'meta-llama/Llama-3.1-70B', gpus: 16, tp: 4, pp: 2, zero: 1, gradCkpt: 'full' },
  { model: LLAMA2, method: 'lora', tp: 2, gpus: 2 },
  { model: LLAMA2, optimStep: 'in-backward', optimImpl: 'for-loop' },
  { model: LLAMA2, gradZero: 'zeros', optimizer: 'adafactor' },
  { model: 'meta-llama/Llama-3.1-8B', lossChunks: 8, compile: 'inductor', gradCkpt: 'full', actOffload: 'cpu' },
  { model: 'meta-llama/Llama-3.1-8B', logitsPath: 'torchtune', actOffload: 'cpu' },
  { model: 'Qwen/Qwen2.5-7B', logitsPath: 'remote-code', lossChunks: 4 },
  { model: 'mistralai/Mixtral-8x7B-v0.1', method: 'lora', gpus: 8, zero: 3 },
  { model: 'google-bert/bert-base-uncased', seq: 512, batch: 8 },
  { model: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B', method: 'qlora', weights: 'nf4', precision: 'bf16' },
  { model: 'google-t5/t5-base', seq: 512 },
  { model: '', params: 7e9, method: 'lora' },
];

/** Reads the formula back, evaluates it from its own values, and compares with the bytes. */
function check(t: Term, where: string): void {
  const d = t.derivation;
  let v: number;
  try {
    v = evaluateFormula(d.formula, d.values);
  } catch (err) {
    throw new Error(`${where} ${t.id}: ${(err as Error).message}`, { cause: err });
  }
  // exact, or within the rounding of whole bytes (sums of fractional per-GPU shares)
  const ok = Math.abs(v - t.bytes) <= 0.5 + 1e-12 * Math.abs(t.bytes);
  expect(ok, `${where} ${t.id}: «${d.formula}» = ${v} with ${JSON.stringify(d.values)}, bytes ${t.bytes}`).toBe(true);
}

function checkAll(e: Estimate, where: string): number {
  for (const t of e.terms) check(t, where);
  return e.terms.length;
}

function run(over: Partial<Scenario>, mode: Scenario['mode']): Estimate {
  const r = estimate({ ...defaultScenario(), mode, ...over });
  if (!r.ok) throw new Error(`${JSON.stringify(over)}: ${JSON.stringify(r.errors)}`);
  return r.value;
}

describe('every term: its formula, evaluated from its values, equals its bytes', () => {
  it.each(INFERENCE.map((o) => [JSON.stringify(o), o] as const))('inference %s', (name, o) => {
    expect(checkAll(run(o, 'inference'), name)).toBeGreaterThanOrEqual(4);
  });

  it.each(TRAINING.map((o) => [JSON.stringify(o), o] as const))('training %s', (name, o) => {
    expect(checkAll(run(o, 'training'), name)).toBeGreaterThanOrEqual(6);
  });

  it('training with varied lengths: the replayed allocator reserve', () => {
    const r = estimateWithReplay({ ...defaultScenario(), model: 'meta-llama/Llama-3.2-1B', mode: 'training', lengths: 'varied', seq: 2048, batch: 4 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value.terms.some((t) => t.id === 'allocator-reserve')).toBe(true);
    checkAll(r.value, 'varied lengths');
  });

  const NETWORK: NetworkOptions[] = [
    { mode: 'training', batch: 32, precision: 'fp32', optimizer: 'sgd-momentum', gradCkpt: 'none' },
    { mode: 'training', batch: 16, precision: 'amp-fp16', optimizer: 'adamw', gradCkpt: 'full' },
    { mode: 'training', batch: 8, precision: 'bf16', optimizer: 'adamw', gradCkpt: 'selective' },
    { mode: 'inference', batch: 64, precision: 'amp-bf16', optimizer: 'adamw', gradCkpt: 'none' },
    { mode: 'inference', batch: 1, precision: 'fp32', optimizer: 'adamw', gradCkpt: 'none' },
  ];
  it.each(NETWORK_PRESETS.flatMap((p) => NETWORK.map((o) => [`${p.id} ${o.mode} ${o.precision} ${o.gradCkpt}`, p, o] as const)))('layers %s', (name, p, o) => {
    const r = estimateNetwork(p.build(), o);
    if (!r.ok) throw new Error(r.errors[0].message);
    expect(checkAll(r.value, name)).toBeGreaterThanOrEqual(4);
  });
});
