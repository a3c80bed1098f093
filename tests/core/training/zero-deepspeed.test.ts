import { describe, expect, it } from 'vitest';
import { parseScenario, serializeScenario } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Scenario } from '../../../src/core/types';
import { P, run } from './llama2';

// Llama-2-7b: h = 4096, L = 32, f = 11008, V = 32000 (untied head); AMP bf16 + AdamW under
// DeepSpeed: 16-bit weights and gradients (g = 2), fp32 master (4) and Adam m, v (8).
const H = 4096,
  L = 32,
  V = 32000;
const HEAD = V * H; // 131,072,000: LM head = embedding = the largest parameter
const OTHER = 2 * L * H + H; // input/post-attention RMSNorm weights per layer + final norm
// two 32 MiB cuBLAS workspaces: the forward's and autograd's device thread's (CublasHandlePool.cpp, sm90 and later)
const CUBLAS = 2 * 4096 * 8 * 1024;
const bytes = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;
const z = (over: Partial<Scenario>) => run({ precision: 'amp-bf16', optimizer: 'adamw', ...over });

describe('DeepSpeed ZeRO-1/2 (stage_1_and_2.py)', () => {
  it("backward allocates one reduce buffer of reduce_bucket_size 16-bit elements; HF 'auto' = h² (trainer_config_finalize)", () => {
    expect(bytes(z({ zero: 2, gpus: 8 }), 'zero-grad-buffers')).toBe(H * H * 2);
  });
  it('DeepSpeed default 5e8 with overlap_comm: two full buffers whatever the model size (2 · 5e8 · 2 B)', () => {
    expect(bytes(z({ zero: 2, gpus: 8, dsReduceBucket: 500_000_000, dsOverlapComm: 'on' }), 'zero-grad-buffers')).toBe(2 * 500_000_000 * 2);
    // LoRA (q, v, r = 16) trains 8.4M parameters yet still gets the full buffers
    expect(bytes(z({ method: 'lora', zero: 2, gpus: 8, dsReduceBucket: 500_000_000, dsOverlapComm: 'on' }), 'zero-grad-buffers')).toBe(2 * 500_000_000 * 2);
  });
  it("overlap_comm 'auto' is DeepSpeed's default: off below ZeRO-3 (zero/config.py overlap_comm_valid)", () => {
    expect(bytes(z({ zero: 1, gpus: 8, dsReduceBucket: 1000 }), 'zero-grad-buffers')).toBe(1000 * 2);
  });
  it('the step builds a 16-bit flat copy and the fp32 gradient partition: (2 + 4)·P/8', () => {
    expect(bytes(z({ zero: 2, gpus: 8 }), 'zero-step-grads')).toBe(6 * (P / 8));
  });
  it('short sequence, 8 GPUs: the step peak is 2P (flat 16-bit weights) + 12P/8 (master, m, v) + 2P/8 grads + 6P/8 step copies', () => {
    const e = z({ zero: 2, gpus: 8, seq: 16 });
    expect(e.allocatedBytes).toBe(2 * P + (12 * P) / 8 + (2 * P) / 8 + (6 * P) / 8 + CUBLAS);
  });
  it('1 GPU, optimizer offloaded: 2P of 16-bit weights, the reduce buffer and a largest-parameter staging buffer stay on the GPU', () => {
    const e = z({ zero: 2, gpus: 1, offload: 'optimizer' });
    expect(bytes(e, 'weights')).toBe(2 * P);
    expect(bytes(e, 'zero-grad-buffers')).toBe(H * H * 2 + HEAD * 2);
    expect(bytes(e, 'zero-step-grads')).toBe(0);
    expect(bytes(e, 'master-weights') + bytes(e, 'optimizer') + bytes(e, 'gradients')).toBe(0);
  });
  it('8 GPUs, optimizer offloaded: the same GPU buffers (temp_grad_buffer_for_gpu_offload is not partitioned)', () => {
    expect(bytes(z({ zero: 2, gpus: 8, offload: 'optimizer' }), 'zero-grad-buffers')).toBe(H * H * 2 + HEAD * 2);
  });
});

describe('DeepSpeed ZeRO-3 (stage3.py, partitioned_param_coordinator.py)', () => {
  const prefetchAuto = Math.floor(0.9 * H * H); // 15,099,494
  it('reduce bucket kept from initialisation plus the reduce-scatter interleave copy: 2·h²·2 B', () => {
    expect(bytes(z({ zero: 3, gpus: 8 }), 'zero-grad-buffers')).toBe(2 * H * H * 2);
  });
  it('gathered at the forward→backward turn: reuse window 1e9/2 + HF prefetch 0.9·h², plus norms kept whole (10·h ≥ h)', () => {
    const e = z({ zero: 3, gpus: 8 });
    expect(bytes(e, 'zero-gathered-params')).toBeCloseTo((500_000_000 + prefetchAuto) * 2 + OTHER * (1 - 1 / 8) * 2, 3);
  });
  it('full checkpointing puts the recomputed forward in the trace: window (1e9 + V·h)/3', () => {
    const e = z({ zero: 3, gpus: 8, gradCkpt: 'full' });
    expect(bytes(e, 'zero-gathered-params')).toBeCloseTo(((1e9 + HEAD) / 3 + prefetchAuto) * 2 + OTHER * (7 / 8) * 2, 3);
  });
  it('a small reuse distance still keeps the LM head (the module in use); max live caps the prefetch', () => {
    const e = z({ zero: 3, gpus: 8, dsReuseDistance: 0, dsMaxLive: HEAD + 1_000_000, dsPersistThreshold: 0 });
    expect(bytes(e, 'zero-gathered-params')).toBe((HEAD + 1_000_000) * 2);
  });
  it('the fp32 gradient of a sub-group: (2 + 4)·min(1e9, P/8)', () => {
    expect(bytes(z({ zero: 3, gpus: 8 }), 'zero-step-grads')).toBe(6 * (P / 8));
    // 2 GPUs: P/2 = 3.37e9 elements exceed sub_group_size = 1e9
    expect(bytes(z({ zero: 3, gpus: 2 }), 'zero-step-grads')).toBe(6 * 1e9);
  });
  it('the gradient partition buffer is allocated once and kept: gradients count as held', () => {
    expect(z({ zero: 3, gpus: 8 }).notes.map((n) => n.code)).toContain('training.grads-held');
  });
  it('short sequence, 8 GPUs: peak = 16P/8 states + 2P/8 kept gradients + 6P/8 step copies + h²·2 bucket + norms', () => {
    const e = z({ zero: 3, gpus: 8, seq: 16 });
    expect(e.allocatedBytes).toBeCloseTo((22 * P) / 8 + H * H * 2 + OTHER * (7 / 8) * 2 + CUBLAS, 0);
  });
  it('one GPU gathers nothing (the partition is the whole tensor); with offloaded parameters it copies them in', () => {
    expect(bytes(z({ zero: 3, gpus: 1 }), 'zero-gathered-params')).toBe(0);
    const off = z({ zero: 3, gpus: 1, offload: 'params' });
    expect(bytes(off, 'zero-gathered-params')).toBe((500_000_000 + prefetchAuto) * 2);
    expect(bytes(off, 'weights') + bytes(off, 'zero-step-grads') + bytes(off, 'gradients')).toBe(0);
  });
});

describe('DeepSpeed keys: schema and rules', () => {
  it("'auto' parses to the HF rule and the defaults are not written", () => {
    const r = parseScenario({ mode: 'training', zero: '3', gpus: '8', 'ds-reduce-bucket': 'auto', 'ds-prefetch-bucket': '50000000' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.dsReduceBucket).toBeNull();
    expect(r.scenario.dsPrefetchBucket).toBe(50_000_000);
    const rec = serializeScenario({ ...defaultScenario(), mode: 'training', zero: 3 });
    for (const k of ['zero-impl', 'ds-reduce-bucket', 'ds-overlap-comm', 'ds-prefetch-bucket', 'ds-persist-threshold', 'ds-max-live', 'ds-reuse-distance']) expect(rec[k]).toBeUndefined();
  });
  it('stage-3 keys warn below ZeRO-3, every ds key warns without DeepSpeed', () => {
    const w = (q: Record<string, string>) => parseScenario({ mode: 'training', gpus: '8', ...q }).warnings.map((x) => `${x.key}:${x.code}`);
    expect(w({ zero: '2', 'ds-prefetch-bucket': '1000', 'ds-reduce-bucket': '1000' })).toEqual(['ds-prefetch-bucket:unused-key']);
    expect(w({ zero: '0', 'ds-reduce-bucket': '1000' })).toEqual(['ds-reduce-bucket:unused-key']);
    expect(w({ zero: '3', 'zero-impl': 'fsdp', 'ds-reuse-distance': '1000' })).toEqual(['ds-reuse-distance:unused-key']);
  });
  it('FSDP has no ZeRO-1 form: zero-impl falls back to deepspeed', () => {
    const r = parseScenario({ mode: 'training', gpus: '8', zero: '1', 'zero-impl': 'fsdp' });
    expect(r.errors.map((x) => `${x.key}:${x.code}`)).toEqual(['zero-impl:incompatible']);
    expect(r.scenario.zeroImpl).toBe('deepspeed');
  });
  it('a round trip keeps every DeepSpeed key', () => {
    const s: Scenario = {
      ...defaultScenario(),
      mode: 'training',
      zero: 3,
      gpus: 8,
      dsReduceBucket: 500_000_000,
      dsOverlapComm: 'off',
      dsPrefetchBucket: 50_000_000,
      dsPersistThreshold: 100_000,
      dsMaxLive: 2_000_000_000,
      dsReuseDistance: 0,
    };
    const back = parseScenario(serializeScenario(s));
    expect(back.errors).toEqual([]);
    expect(back.scenario).toEqual(s);
  });
});
