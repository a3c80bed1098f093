/**
 * llama.cpp over several GPUs (--split-mode layer, --tensor-split): the placement of
 * src/llama-model.cpp llama_model::load_tensors worked by hand, and the bytes of each GPU counted
 * from the GGUF block sizes (ggml-common.h: q4_K 144 B and q6_K 210 B per 256 weights) and
 * llama-quant.cpp's Q4_K_M rules (attn_v and ffn_down in Q6_K on use_more_bits layers).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/estimate';
import { estimate } from '../../../src/core/estimate';
import { llamaCppPlacement, splitPoints } from '../../../src/core/inference/llamacpp-split';
import { parseScenario, serializeScenario } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { minGpus } from '../../../src/core/solve';
import type { Scenario } from '../../../src/core/types';
import { GiB } from '../../../src/core/units';

describe('layer placement (llama-model.cpp load_tensors)', () => {
  it('split 3,1: split points 0.75 and 1', () => {
    expect(splitPoints([3, 1])).toEqual([0.75, 1]);
  });

  it('32 layers, every one offloaded, split 3,1: layer i goes to GPU 0 while i / 33 < 0.75, so blk.0–24 there, blk.25–31 and the output on GPU 1', () => {
    const p = llamaCppPlacement(32, null, [3, 1], 2);
    expect(p.ranges).toEqual([
      { from: 0, to: 25 },
      { from: 25, to: 32 },
    ]);
    expect(p.outputGpu).toBe(1);
    expect(p.cpuLayers).toBe(0);
    expect(p.pipeline).toBe(true);
  });

  it('the default split on two identical cards: i / 33 < 0.5 gives blk.0–16 to GPU 0', () => {
    expect(llamaCppPlacement(32, null, null, 2).ranges).toEqual([
      { from: 0, to: 17 },
      { from: 17, to: 32 },
    ]);
  });

  it('upper_bound is strict: with 3 layers and split 1,1, layer 2 sits exactly at 2 / 4 = 0.5 and goes to GPU 1', () => {
    const p = llamaCppPlacement(3, null, [1, 1], 2);
    expect(p.ranges).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 3 },
    ]);
    expect(p.outputGpu).toBe(1);
  });

  it('-ngl 20 of 32 on two GPUs: i_gpu_start = 12, act = 20; blk.12–21 and blk.22–31, the output on the CPU, no pipeline', () => {
    const p = llamaCppPlacement(32, 20, null, 2);
    expect(p.ranges).toEqual([
      { from: 12, to: 22 },
      { from: 22, to: 32 },
    ]);
    expect(p.outputGpu).toBe(-1);
    expect(p.cpuLayers).toBe(12);
    expect(p.pipeline).toBe(false);
  });

  it('a zero weight leaves its GPU empty: split 1,0,1 on 4 layers', () => {
    const p = llamaCppPlacement(4, null, [1, 0, 1], 3);
    expect(p.ranges.map((r) => r.to - r.from)).toEqual([3, 0, 1]);
    expect(p.outputGpu).toBe(2);
  });
});

const Q4K = 144 / 256;
const Q6K = 210 / 256;
const ATTN = 4096 * 4096;
const FFN = 4096 * 11008;
/** a Llama-2-7b layer in Q4_K_M: q, k, v, o, gate, up, down in q4_K; on use_more_bits layers v and down in q6_K */
const LIGHT = (4 * ATTN + 3 * FFN) * Q4K; // 113,836,032
const HEAVY = LIGHT + (ATTN + FFN) * (Q6K - Q4K); // 129,785,856
/** two f32 norms per layer, and output_norm shared over the 32 layers */
const NORMS = 2 * 4096 * 4 + (4096 * 4) / 32; // 33,280
const OUTPUT = 32000 * 4096 * Q6K; // output.weight q6_K

describe('Llama-2-7b Q4_K_M on two GPUs, --tensor-split 3,1, 2,304 f16 cells', () => {
  const run = (p: Partial<Scenario>) => {
    const r = estimate({ ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', engine: 'llama.cpp', weights: 'gguf-q4_k_m', kv: 'fp16', prompt: 2048, gen: 256, gpus: 2, ...p });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.value;
  };
  const e = run({ tensorSplit: [3, 1] });
  // use_more_bits(i, 32): i < 4, i ≥ 28 or (i − 4) % 3 = 2 → 0–3, 6, 9, …, 27, 28–31
  // GPU 0 (blk.0–24): 11 heavy (0–3, 6, 9, 12, 15, 18, 21, 24) and 14 light; GPU 1 (blk.25–31): 5 heavy (27–31), 2 light
  const w0 = 11 * HEAVY + 14 * LIGHT + 25 * NORMS;
  const w1 = 5 * HEAVY + 2 * LIGHT + 7 * NORMS + OUTPUT;
  // K and V: 2 · 4096 · 2 B per cell per layer
  const kvLayer = 2 * 4096 * 2 * 2304;
  // kq node: f32 scores [2304, 512, 32] + mask [2304, 512] + 4 rows [4096, 512]; logits [32000, 512] + [4096, 512]
  const mask = 2304 * 512 * 4;
  const kq = 2304 * 512 * 32 * 4 + mask + 4 * 512 * 4096 * 4;
  // pipeline parallel: 4 copies of the received residual [4096, 512] f32 and positions [512] i32, 3 more masks
  const copies = 4 * (512 * 4096 * 4 + 512 * 4) + 3 * mask;

  it('weights by layer: 3,022,180,864 B on GPU 0, the rest and output.weight on GPU 1; together the whole offloaded model', () => {
    expect(w0).toBe(3_022_180_864);
    expect(e.terms.find((t) => t.id === 'weights')!.bytes).toBe(w0);
    expect(run({ gpus: 1 }).terms.find((t) => t.id === 'weights')!.bytes).toBe(w0 + w1);
  });

  it('per GPU: weights + the KV of its layers + its compute buffer and input copies; the estimate is GPU 0', () => {
    const gpu0 = w0 + 25 * kvLayer + kq + copies;
    const gpu1 = w1 + 7 * kvLayer + kq + copies;
    expect(e.perGpu).toEqual([gpu0, Math.ceil(gpu1)]);
    expect(e.allocatedBytes).toBe(gpu0);
    expect(e.engine?.layersPerGpu).toEqual([25, 7]);
    expect(e.notes.some((n) => n.code === 'llamacpp.tensor-split')).toBe(true);
  });

  it('the default split (17 / 15 layers) loads GPU 0 less than 3,1 does', () => {
    const even = run({});
    expect(even.engine?.layersPerGpu).toEqual([17, 15]);
    expect(even.allocatedBytes).toBeLessThan(e.allocatedBytes);
    // and a single GPU holds everything
    expect(run({ gpus: 1 }).allocatedBytes).toBeGreaterThan(e.allocatedBytes);
  });

  it('host: token_embd (q4_K) and the CUDA_Host buffer, which keeps 3 more mask copies under pipeline parallelism', () => {
    const h = e.engine!.host!;
    expect(h.embeddingAndOutput).toBe(32000 * 4096 * Q4K);
    expect(h.buffers).toBe(512 * 4096 * 4 + mask + 3 * mask + 32000 * 4);
  });

  it('fewest GPUs for llama.cpp adds GPUs to its split (tp = pp = 1): Llama-2-7b Q4_K_M needs two 4 GiB cards', () => {
    const s = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', engine: 'llama.cpp' as const, weights: 'gguf-q4_k_m' as const, kv: 'fp16' as const, prompt: 2048, gen: 256 };
    const r = minGpus(s, 4 * GiB);
    expect(r.ok && r.value).toEqual({ gpus: 2, tp: 1, pp: 1 });
  });
});

describe('tensor-split key: parse, rules, link and CLI', () => {
  const base = { model: 'meta-llama/Llama-2-7b-hf', engine: 'llama.cpp', weights: 'gguf-q4_k_m' };

  it("reads '3,1' and '3/1'; 'auto' and all zeros are the default split", () => {
    expect(parseScenario({ ...base, gpus: '2', 'tensor-split': '3,1' }).scenario.tensorSplit).toEqual([3, 1]);
    expect(parseScenario({ ...base, gpus: '2', 'tensor-split': '3/1' }).scenario.tensorSplit).toEqual([3, 1]);
    expect(parseScenario({ ...base, gpus: '2', 'tensor-split': 'auto' }).scenario.tensorSplit).toBeNull();
    expect(parseScenario({ ...base, gpus: '2', 'tensor-split': '0,0' }).scenario.tensorSplit).toBeNull();
  });

  it('bad values: a named error; 16 weights are more than llama.cpp accepts (size ≥ llama_max_devices())', () => {
    for (const raw of ['3;1', '-1,1', '1,,1', 'x', new Array(16).fill('1').join(',')]) {
      const r = parseScenario({ ...base, gpus: '2', 'tensor-split': raw });
      expect(r.errors.map((x) => [x.key, x.code])).toEqual([['tensor-split', 'invalid-value']]);
    }
  });

  // typed numbers (gpus, tp, tensor-split) that clash are kept by a link as the form keeps them, and the estimate refuses them (rules.ts typedClash)
  const refusedBy = (rec: Record<string, string>) => {
    const r = parseScenario(rec);
    const e = estimate(r.scenario);
    return { parse: r.errors.map((x) => x.code), estimate: e.ok ? [] : e.errors.map((x) => x.code), scenario: r.scenario };
  };

  it('one weight per GPU, and llama.cpp has no tp / pp grid', () => {
    const r = refusedBy({ ...base, gpus: '3', 'tensor-split': '3,1' });
    expect([r.parse, r.estimate]).toEqual([[], ['tensor-split-gpus']]);
    expect(r.scenario.tensorSplit).toEqual([3, 1]);
    const g = refusedBy({ ...base, gpus: '2', tp: '2' });
    expect([g.parse, g.estimate]).toEqual([[], ['llamacpp-grid']]);
  });

  it('one llama.cpp process drives at most llama_max_devices() = 16 GPUs', () => {
    expect(refusedBy({ ...base, gpus: '16' }).estimate).toEqual([]);
    const r = refusedBy({ ...base, gpus: '17' });
    expect([r.parse, r.estimate]).toEqual([[], ['llamacpp-gpus']]);
    expect(estimate({ ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', engine: 'llama.cpp', weights: 'gguf-q4_k_m', gpus: 1_000_000 }).ok).toBe(false);
  });

  it('unused: other engines, and a single GPU', () => {
    expect(parseScenario({ model: 'meta-llama/Llama-2-7b-hf', gpus: '2', 'tensor-split': '1,1' }).warnings.map((w) => w.key)).toEqual(['tensor-split']);
    expect(parseScenario({ ...base, 'tensor-split': '1' }).warnings.map((w) => [w.key, w.params?.with])).toEqual([['tensor-split', 'gpus']]);
  });

  it('the link writes it back as given', () => {
    const s = parseScenario({ ...base, gpus: '2', 'tensor-split': '3,1.5' }).scenario;
    expect(serializeScenario(s)['tensor-split']).toBe('3,1.5');
    expect(parseScenario(serializeScenario(s)).scenario).toEqual(s);
  });

  it('CLI: --tensor-split 3,1 gives perGpu in JSON; a bad list is one stderr line and exit 2', async () => {
    const args = ['--model', 'meta-llama/Llama-2-7b-hf', '--engine', 'llama.cpp', '--weights', 'gguf-q4_k_m', '--gpus', '2', '--tensor-split', '3,1'];
    const ok = await main([...args, '--json']);
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.stdout) as { perGpu: number[]; engine: { layersPerGpu: number[] } };
    expect(out.engine.layersPerGpu).toEqual([25, 7]);
    expect(out.perGpu).toHaveLength(2);
    const text = await main(args);
    expect(text.stdout).toMatch(/^GPU layers: 33 \(per GPU: 25 \/ 7\)$/m);
    const bad = await main([...args.slice(0, -1), '3,x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/tensor-split/);
  });
});
