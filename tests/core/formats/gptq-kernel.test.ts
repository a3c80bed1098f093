/**
 * The GPTQ kernels' persistent buffers (formats/gptq-kernel.ts), counted by hand from their source for
 * Llama-2-7b: 32 layers, hidden 4,096, intermediate 11,008; block Linears q, k, v, o (4,096 → 4,096),
 * gate and up (4,096 → 11,008), down (11,008 → 4,096); group size 128.
 * - ExLlama v1 (gptqmodel_post_init / autogptq_post_init): temp_dq = (1, max qweight.numel()·8) fp16 =
 *   the largest in·out, 4,096 · 11,008 · 2 B; temp_state = (max_input_len, max_inner_outer_dim) fp16:
 *   2,048 × 11,008 with act-order, else 1 × 1.
 * - ExLlama v2 (exllamav2.py scratch_space_fixed): max over modules of in·out·2 + 128 +
 *   out · 2,048 · 8 · 4 + 128 — gate / up: 90,177,536 + 721,420,288 + 256 = 811,598,080; plus
 *   q_perm + q_invperm, int16 [in], for every module whose g_idx is not all zero:
 *   32 · (6 · 4 · 4,096 + 4 · 11,008) = 4,554,752.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario, parseScenario } from '../../../src/core/scenario';
import { gptqLayerSizes, kernelBuffers, resolveGptqKernel, type ResolvedGptqKernel } from '../../../src/core/formats/gptq-kernel';
import { findPreset } from '../../../src/core/model/presets';
import type { ModelArch, Scenario } from '../../../src/core/types';

const base: Partial<Scenario> = { model: 'meta-llama/Llama-2-7b-hf', mode: 'inference', engine: 'transformers', weights: 'gptq-int4', batch: 1, prompt: 1024, gen: 256 };

function run(p: Partial<Scenario>) {
  const r = estimate({ ...defaultScenario(), ...base, ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const buffer = (p: Partial<Scenario>) => run(p).terms.find((t) => t.id === 'dequant-buffer');

const V1 = 4096 * 11008 * 2;
const gptqKernelBuffers = (arch: ModelArch, kernel: ResolvedGptqKernel, group: number, descAct: boolean) => kernelBuffers(gptqLayerSizes(arch, group), kernel, descAct);
const V2_SCRATCH = 4096 * 11008 * 2 + 128 + 11008 * 2048 * 8 * 4 + 128;
const V2_PERM = 32 * (6 * 4 * 4096 + 4 * 11008);

describe('GPTQ kernel buffers', () => {
  it('hand counts: ExLlama v1 with and without act-order, ExLlama v2 scratch and permutations', () => {
    expect(V2_SCRATCH).toBe(811_598_080);
    expect(V2_PERM).toBe(4_554_752);
    const arch = { value: findPreset('meta-llama/Llama-2-7b-hf')!.arch };
    expect(gptqKernelBuffers(arch.value, 'exllama', 128, false)).toMatchObject({ perGpu: V1 + 2, perm: 0 });
    expect(gptqKernelBuffers(arch.value, 'exllama', 128, true)).toMatchObject({ perGpu: V1 + 2048 * 11008 * 2, perm: 0 });
    expect(gptqKernelBuffers(arch.value, 'exllamav2', 128, false)).toMatchObject({ perGpu: V2_SCRATCH, perm: V2_PERM });
    // act-order stores the same tensors: ExLlama v2 builds the permutation either way
    expect(gptqKernelBuffers(arch.value, 'exllamav2', 128, true)).toEqual(gptqKernelBuffers(arch.value, 'exllamav2', 128, false));
    // a group as wide as every input leaves g_idx all zero: no permutation
    expect(gptqKernelBuffers(arch.value, 'exllamav2', 16384, false).perm).toBe(0);
    expect(gptqKernelBuffers(arch.value, 'triton', 128, true)).toMatchObject({ perGpu: 0, perm: 0 });
  });

  it("'auto' is ExLlama v1 for 4-bit (GPTQConfig's exllama_config version 1) and Triton for 8-bit; other formats have none", () => {
    expect(resolveGptqKernel('gptq-int4', 'auto')).toBe('exllama');
    expect(resolveGptqKernel('gptq-int8', 'auto')).toBe('triton');
    expect(resolveGptqKernel('awq-int4', 'auto')).toBeNull();
  });

  it('the estimate holds the buffer beside the weights, and only the kernel changes the total', () => {
    expect(buffer({})?.bytes).toBe(V1 + 2);
    expect(buffer({ descAct: 'on' })?.bytes).toBe(V1 + 2048 * 11008 * 2);
    expect(buffer({ gptqKernel: 'exllamav2' })?.bytes).toBe(V2_SCRATCH + V2_PERM);
    expect(buffer({ gptqKernel: 'triton' })).toBeUndefined();
    expect(run({}).allocatedBytes - run({ gptqKernel: 'triton' }).allocatedBytes).toBe(V1 + 2);
    expect(run({ gptqKernel: 'exllamav2' }).allocatedBytes - run({ gptqKernel: 'triton' }).allocatedBytes).toBe(V2_SCRATCH + V2_PERM);
  });

  it("with 'auto' the term says what ExLlama v2 (GPTQModel's choice) would hold instead", () => {
    const note = buffer({})?.derivation.note;
    expect(note?.code).toBe('inference.gptq-exllamav2');
    expect(note?.params?.bytes).toBe(V2_SCRATCH + V2_PERM);
    expect(buffer({ gptqKernel: 'exllama' })?.derivation.note).toBeUndefined();
  });

  it('ExLlama kernels with 8-bit weights are refused; desc-act and gptq-kernel away from GPTQ are named as unused', () => {
    const p = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', mode: 'inference', weights: 'gptq-int8', 'gptq-kernel': 'exllamav2' });
    expect(p.errors.map((e) => e.key)).toContain('gptq-kernel');
    expect(p.scenario.gptqKernel).toBe('auto');
    const bf16 = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', mode: 'inference', weights: 'bf16', 'desc-act': 'on', 'gptq-kernel': 'exllama' });
    expect(bf16.warnings.map((w) => w.key).sort()).toEqual(['desc-act', 'gptq-kernel']);
    const training = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', mode: 'training', method: 'qlora', weights: 'gptq-int4', 'gptq-kernel': 'exllama' });
    expect(training.warnings.map((w) => w.key)).toContain('gptq-kernel');
  });
});
