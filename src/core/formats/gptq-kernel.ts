/**
 * GPU buffers of the GPTQ kernel transformers loads a GPTQ checkpoint with, besides the checkpoint's
 * own tensors (qweight, qzeros, scales, g_idx: formats/quantized.ts gptq).
 *
 * Which kernel depends on the library behind optimum:
 * - AutoGPTQ: transformers' GPTQConfig.post_init sets `use_exllama = True` and
 *   `exllama_config = {"version": ExllamaVersion.ONE}` unless told otherwise
 *   (transformers utils/quantization_config.py), so 4-bit checkpoints load ExLlama v1. This is the
 *   stack of the published 2023–24 measurements (e.g. Qwen's speed benchmark: transformers 4.46 +
 *   AutoGPTQ 0.7.1), and 'auto' follows it.
 * - GPTQModel (AutoGPTQ's successor; transformers prefers it when installed): GPTQConfig sets
 *   backend "auto", and `hf_select_quant_linear` (gptqmodel/utils/importer.py) leaves Marlin out
 *   ("Marlin does not support padding in_features and out_features"), so the first usable kernel of
 *   AUTO_SELECT_BACKEND_ORDER for 4-bit is ExLlama v2 — choose 'exllamav2'.
 * The ExLlama kernels take 4 bits only; 8-bit loads a kernel without persistent buffers (Triton / CUDA).
 *
 * What each allocates at `post_init` (gptqmodel/utils/model.py gptqmodel_post_init, the same code as
 * AutoGPTQ's autogptq_post_init), and keeps for the life of the model:
 * - ExLlama v2 (nn_modules/qlinear/exllamav2.py): one scratch per GPU, sized by the module that needs most:
 *   `scratch_space_fixed()` = temp_dq_size (in·out·2 + 128, the layer unpacked to fp16) + temp_fwd_size
 *   (out · max_input_len 2048 · max_batch_size 8 · 4 + 128); `ExLlamaV2DeviceTensors.prepare` allocates it
 *   as one fp16 tensor. Each module whose g_idx is not all zero (any group smaller than its input, with or
 *   without act-order) also gets `q_perm` and `q_invperm`, int16 [in] each (`ext_make_q_matrix`).
 * - ExLlama v1 (nn_modules/qlinear/exllama.py): per GPU `temp_dq` (1, max qweight.numel()·8) fp16 — the
 *   largest layer's in·out — and `temp_state` (max_input_len, max_inner_outer_dim) fp16, which reorders the
 *   input for act-order: 2048 × the widest in/out with desc_act, else 1 × 1.
 * - Triton v2: dequantizes inside the matmul kernel; nothing persistent.
 * act-order (desc_act) stores the same tensors (g_idx maps each input to its group either way), so with
 * ExLlama v2 and Triton it changes no byte; only ExLlama v1's temp_state grows with it.
 */
import type { GptqKernel, ModelArch, WeightFormat } from '../types';
import { blockKinds } from '../model/tensors';

/** ExLlama's default max_input_len (EXLLAMA_DEFAULT_MAX_INPUT_LENGTH; scratch_space_fixed's default). */
export const EXLLAMA_MAX_INPUT_LEN = 2048;
/** ExLlama v2 scratch_space_fixed's default max_batch_size. */
export const EXLLAMA_V2_MAX_BATCH = 8;

export type ResolvedGptqKernel = Exclude<GptqKernel, 'auto'>;

/** The kernel a GPTQ checkpoint runs with: 'auto' = ExLlama v1 for 4-bit (GPTQConfig's default), Triton for 8-bit. Null for other formats. */
export function resolveGptqKernel(weights: WeightFormat, kernel: GptqKernel): ResolvedGptqKernel | null {
  if (weights !== 'gptq-int4' && weights !== 'gptq-int8') return null;
  if (kernel !== 'auto') return kernel;
  return weights === 'gptq-int4' ? 'exllama' : 'triton';
}

/** The ExLlama kernels are 4-bit only (ExllamaV2QuantLinear / ExllamaQuantLinear SUPPORTS_BITS = [4]). */
export const kernelTakesBits = (kernel: ResolvedGptqKernel, weights: WeightFormat): boolean => kernel === 'triton' || weights === 'gptq-int4';

/** What the kernels' buffers are sized by, from one pass over the model's quantized Linears. */
export interface GptqLayerSizes {
  /** ExLlama v2 `scratch_space_fixed`: max over layers of temp_dq + temp_fwd */
  v2Scratch: number;
  /** q_perm + q_invperm of every quantized Linear whose g_idx is not all zero (ExLlama v2), all layers */
  perm: number;
  /** the largest in·out of one Linear, and the widest in or out */
  largest: number;
  widest: number;
}

/**
 * The sizes of the model's quantized Linears (the block Linears; embeddings and head stay 16-bit)
 * that the kernels' buffers follow. `group` is the GPTQ group size: g_idx = i // group is all zero,
 * and ExLlama v2 builds no permutation, only where group ≥ in.
 */
export function gptqLayerSizes(arch: ModelArch, group: number): GptqLayerSizes {
  let v2Scratch = 0;
  let largest = 0;
  let widest = 0;
  let perm = 0;
  for (const kind of blockKinds(arch)) {
    for (const t of kind.linears) {
      const dq = t.din * t.dout * 2 + 128;
      const fwd = t.dout * EXLLAMA_MAX_INPUT_LEN * EXLLAMA_V2_MAX_BATCH * 4 + 128;
      v2Scratch = Math.max(v2Scratch, dq + fwd);
      largest = Math.max(largest, t.din * t.dout);
      widest = Math.max(widest, t.din, t.dout);
      if (group < t.din) perm += kind.count * t.copies * 2 * 2 * t.din;
    }
  }
  return { v2Scratch, perm, largest, widest };
}

/** One kernel's persistent buffers: one set per GPU that holds quantized layers, and the per-layer permutations. */
export interface GptqKernelBuffers {
  kernel: ResolvedGptqKernel;
  /** one per GPU: ExLlama v2 scratch, or ExLlama v1 temp_dq + temp_state */
  perGpu: number;
  /** q_perm + q_invperm of every quantized Linear (ExLlama v2), all layers */
  perm: number;
}

/** `kernel`'s buffers for layers of these sizes (desc_act: act-order, which only ExLlama v1's temp_state follows). */
export function kernelBuffers(sizes: GptqLayerSizes, kernel: ResolvedGptqKernel, descAct: boolean): GptqKernelBuffers {
  if (kernel === 'exllamav2') return { kernel, perGpu: sizes.v2Scratch, perm: sizes.perm };
  if (kernel === 'exllama') return { kernel, perGpu: sizes.largest * 2 + (descAct ? EXLLAMA_MAX_INPUT_LEN * sizes.widest * 2 : 2), perm: 0 };
  return { kernel, perGpu: 0, perm: 0 };
}
