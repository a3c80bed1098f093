import { describe, expect, test } from 'vitest';
import { GPUS, GPU_ALIASES, customGpu, findGpu, parseCapacity, resolveGpu } from '../../src/core/gpus';
import { parseScenario, serializeScenario } from '../../src/core/scenario';
import { defaultScenario } from '../../src/core/scenario/schema';
import { estimate } from '../../src/core/estimate';
import { fitsWithin } from '../../src/core/fit-rule';

const MIB = 2 ** 20;
const GIB = 2 ** 30;

// nvidia-smi totals from the sources cited in data/gpus.json / docs/reference/catalogues.md §1:
// modal-labs/modal-client PR #2797 (H100 81559, A100-80GB 81920, A100-40GB 40960, A10G 23028,
// L40S 46068, L4 23034, T4 15360 MiB), RLinf #255 (RTX 4090 24564 MiB), club-3090 #1128 (3090 24576 MiB),
// NVIDIA/cuda-samples #311 (H200 143771 MiB), TensorRT-LLM #10278 (B200 183359 MiB).
describe('GPU capacities against nvidia-smi totals', () => {
  test.each([
    ['a100-80gb-sxm4', 81920],
    ['a100-40gb-sxm4', 40960],
    ['h100-sxm', 81559],
    ['rtx-4090', 24564],
    ['rtx-3090', 24576],
    ['t4', 15360],
    ['l4', 23034],
    ['a10g', 23028],
    ['l40s', 46068],
    ['h200-sxm', 143771],
    ['b200', 183359],
  ])('%s reports %i MiB', (id, mib) => {
    const g = findGpu(id)!;
    expect(g.capacityBytes).toBe(mib * MIB);
    expect(g.capacityBasis).toBe('reported');
  });

  test('A100 "80 GB" is exactly 80 GiB; H100 "80 GB" is 79.65 GiB', () => {
    expect(findGpu('a100-80gb-pcie')!.capacityBytes).toBe(80 * GIB);
    expect(findGpu('a100-80gb-pcie')!.memoryStated).toBe('80 GB');
    expect(findGpu('h100-sxm')!.capacityBytes / GIB).toBeCloseTo(79.647, 3);
  });

  test('ECC cards report less than the 16 GiB of dies: T4 "16 GB" = 15 GiB', () => {
    const t4 = findGpu('T4')!;
    expect(t4.memoryGb).toBe(16);
    expect(t4.capacityBytes).toBe(15 * GIB);
    expect(t4.capacityBytes).toBeLessThan(16 * GIB);
  });
});

describe('catalogue shape', () => {
  test('65 unique ids (47 cards and 7 Apple chips in 18 memory configurations) with positive finite capacities and bandwidths', () => {
    expect(GPUS).toHaveLength(65);
    expect(new Set(GPUS.map((g) => g.id)).size).toBe(65);
    expect(GPUS.filter((g) => g.category === 'apple-silicon')).toHaveLength(18);
    for (const g of GPUS) {
      expect(Number.isFinite(g.capacityBytes) && g.capacityBytes > 0).toBe(true);
      expect(g.bandwidthGBs).toBeGreaterThan(0);
    }
  });

  test('unreported cards use the marketed size as GiB (binary-sized dies): RTX A6000 48 GiB', () => {
    expect(findGpu('rtx-a6000')!.capacityBytes).toBe(48 * GIB);
    expect(findGpu('rtx-a6000')!.capacityBasis).toBe('nominal');
  });

  test('Apple: GPU can wire ~3/4 of unified memory (M2 Ultra 192 GB -> 144 GiB); the chip id is its largest configuration', () => {
    const g = findGpu('m2-ultra')!;
    expect(g.id).toBe('m2-ultra-192gb');
    expect(g.capacityBytes).toBe(144 * GIB);
    expect(g.capacityBasis).toBe('wired-limit');
  });

  test("Apple: each memory configuration is its own entry, at Metal's recommendedMaxWorkingSetSize as llama.cpp prints it", () => {
    const mib = (id: string) => findGpu(id)!.capacityBytes / 2 ** 20;
    // ggml_metal_init: recommendedMaxWorkingSetSize = 21845.34 MB on a 32 GB M2 Max (ollama/ollama #434), 49152.00 on a
    // 64 GB Max (ggml-org/llama.cpp #1870), 73728.00 on a 96 GB M2 Max (ggml-org/llama.cpp #3213) — MB there is MiB
    expect(mib('m2-max-32gb')).toBeCloseTo(21845.34, 1);
    expect(mib('m2-max-64gb')).toBe(49152);
    expect(mib('m2-max-96gb')).toBe(73728);
    expect(GPUS.filter((g) => g.id.startsWith('m3-max-14-core-cpu-30-core-gpu-')).map((g) => g.memoryGb)).toEqual([36, 96]);
  });

  test('Apple: a 70B q4_K_M model (about 40 GiB of weights) does not fit a 36 GB M3 Max, and fits the 96 GB one', () => {
    const s = { ...defaultScenario(), model: 'meta-llama/Llama-2-70b-hf', engine: 'llama.cpp' as const, weights: 'gguf-q4_k_m' as const, prompt: 512, gen: 256 };
    const small = estimate({ ...s, gpu: 'm3-max-14-core-cpu-30-core-gpu-36gb' });
    const big = estimate({ ...s, gpu: 'm3-max-14-core-cpu-30-core-gpu-96gb' });
    if (!small.ok || !big.ok) throw new Error('rejected');
    // 36 GB × 2/3 = 24 GiB wired; 96 GB × 3/4 = 72 GiB
    expect(findGpu('m3-max-14-core-cpu-30-core-gpu-36gb')!.capacityBytes).toBe(24 * GIB);
    expect(fitsWithin(s, small.value, findGpu('m3-max-14-core-cpu-30-core-gpu-36gb')!.capacityBytes)).toBe(false);
    expect(fitsWithin(s, big.value, findGpu('m3-max-14-core-cpu-30-core-gpu-96gb')!.capacityBytes)).toBe(true);
    expect(small.value.deviceBytes).toBeGreaterThan(36 * GIB);
  });

  test('MI250X is two 64 GB GCDs; one device holds 64 GiB', () => {
    expect(findGpu('mi250x')!.capacityBytes).toBe(64 * GIB);
  });

  test('H100 SXM bandwidth 3350 GB/s and 989.4 dense bf16 TFLOPS (datasheet, dense = sparse/2)', () => {
    const g = findGpu('h100-sxm')!;
    expect(g.bandwidthGBs).toBe(3350);
    expect(g.tflops.bf16).toBe(989.4);
  });

  test('unknown id is undefined', () => {
    expect(findGpu('no-such-gpu')).toBeUndefined();
  });
});

describe('custom devices', () => {
  test('parseCapacity distinguishes GB and GiB', () => {
    expect(parseCapacity('24GB')).toBe(24e9);
    expect(parseCapacity('24 GiB')).toBe(24 * GIB);
    expect(parseCapacity('81920MiB')).toBe(80 * GIB);
    expect(parseCapacity('24')).toBeNull();
    expect(parseCapacity('-1GB')).toBeNull();
    expect(parseCapacity('1e400GB')).toBeNull();
    expect(parseCapacity('999999999TiB')).toBeNull();
  });

  test('customGpu clamps bad input to finite values', () => {
    expect(customGpu(NaN).capacityBytes).toBe(MIB);
    expect(customGpu(Infinity).capacityBytes).toBe(MIB);
    expect(customGpu(12 * GIB).capacityBytes).toBe(12 * GIB);
  });

  test('resolveGpu: catalogue id or capacity spec', () => {
    expect(resolveGpu('rtx-4090')!.id).toBe('rtx-4090');
    expect(resolveGpu('12GiB')!.capacityBytes).toBe(12 * GIB);
    expect(resolveGpu('nonsense')).toBeUndefined();
  });
});

describe('aliases people type (GPU_ALIASES)', () => {
  test.each([
    // nvidia-smi totals as above (modal-labs PR #2797, RLinf #255, club-3090 #1128)
    ['a100-80gb', 'a100-80gb-sxm4', 81920],
    ['A100', 'a100-80gb-sxm4', 81920],
    ['a100-40gb', 'a100-40gb-sxm4', 40960],
    ['h100', 'h100-sxm', 81559],
    ['4090', 'rtx-4090', 24564],
    ['RTX 4090', 'rtx-4090', 24564],
    ['rtx4090', 'rtx-4090', 24564],
    ['NVIDIA GeForce RTX 3090', 'rtx-3090', 24576],
    ['3090', 'rtx-3090', 24576],
    ['h200', 'h200-sxm', 143771],
  ])('%s → %s (%i MiB)', (typed, id, mib) => {
    const g = findGpu(typed)!;
    expect(g.id).toBe(id);
    expect(g.capacityBytes).toBe(mib * MIB);
  });

  test('a PCIe/SXM alias picks a board whose capacity equals both variants', () => {
    expect(findGpu('a100-80gb')!.capacityBytes).toBe(findGpu('a100-80gb-pcie')!.capacityBytes);
    expect(findGpu('a100-40gb')!.capacityBytes).toBe(findGpu('a100-40gb-pcie')!.capacityBytes);
    expect(findGpu('h100')!.capacityBytes).toBe(findGpu('h100-pcie')!.capacityBytes);
  });

  test('every alias targets a catalogue id and shadows none', () => {
    const ids = new Set(GPUS.map((g) => g.id));
    for (const [alias, id] of Object.entries(GPU_ALIASES)) {
      expect(ids.has(id), id).toBe(true);
      expect(ids.has(alias), alias).toBe(false);
    }
  });

  test('ambiguous sizes and object keys have no alias', () => {
    for (const name of ['v100', '3080', 'constructor', '__proto__', 'toString', '']) expect(findGpu(name)).toBeUndefined();
  });

  test('the scenario stores the canonical id, so links and the CLI write it back', () => {
    const p = parseScenario({ gpu: 'a100-80gb' });
    expect(p.errors).toEqual([]);
    expect(p.scenario.gpu).toBe('a100-80gb-sxm4');
    expect(serializeScenario(p.scenario).gpu).toBe('a100-80gb-sxm4');
    expect(resolveGpu('4090')!.id).toBe('rtx-4090');
  });
});
