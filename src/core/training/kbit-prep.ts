/**
 * PEFT `prepare_model_for_kbit_training` (peft/src/peft/utils/other.py), which QLoRA recipes call
 * on the quantized model before `get_peft_model` (the QLoRA paper's qlora.py, PEFT and TRL examples):
 * - it sets `requires_grad = False` on every parameter, then — unless the model is GPTQ, AQLM, EETQ,
 *   HQQ or torchao quantized — casts every fp16 / bf16 parameter that is not a `Params4bit` to fp32
 *   (`param.data = param.data.to(torch.float32)`): embeddings, norms, biases and the LM head; the
 *   LLM.int8 `Int8Params` are int8 and AWQ's packed tensors are buffers, so they stay;
 * - with `use_gradient_checkpointing=True` (its default) it calls `enable_input_require_grads` and
 *   `gradient_checkpointing_enable` — modelled by the separate grad-ckpt key.
 *
 * What the fp32 parameters change downstream (transformers modeling_llama.py):
 * - the embedding output is fp32, and `residual + hidden_states` keeps the residual stream fp32;
 * - `LlamaRMSNorm.forward` returns `self.weight * hidden_states.to(input_dtype)`: with an fp32
 *   weight the norm output is fp32, so every q/k/v/gate/up input is fp32;
 * - the quantized Linears hand back their input's dtype: bitsandbytes `Linear4bit.forward`
 *   (`matmul_4bit(x.to(compute_dtype), …).to(inp_dtype)`), `MatMul8bitLt` (`int8_scaled_mm(…,
 *   dtype=A.dtype)`), autoawq `WQLinear_GEMM.forward` (`out.to(dtype=input_dtype)`): the gate and
 *   up outputs, the SiLU output and their product — everything the MLP saves — are fp32, as is the
 *   down input. q, k, v are fp32 too; autocast's SDPA, and transformers' flash path
 *   (`fa_peft_integration_check`: "PEFT usually casts the layer norms in float32 … we need cast
 *   them back in float16 / bfloat16"), save 16-bit copies of them, while SDPA / eager attention
 *   without autocast run, and save, in fp32;
 * - the LM head is an fp32 Linear: without autocast its logits are fp32; under autocast the logits
 *   are 16-bit, and `linear` runs on autocast's 16-bit copy of the frozen weight (no cache: the
 *   weight needs no grad), which mm saves for the gradient of its input until the head's backward.
 */
import type { Scenario, WeightFormat } from '../types';

/** Bases whose unquantized parameters prepare_model_for_kbit_training casts to fp32. */
const UPCAST_BASES: readonly WeightFormat[] = ['nf4', 'fp4', 'bnb-int8', 'awq-int4'];

/** The scenario trains LoRA over a base that prepare_model_for_kbit_training upcasts. */
export function kbitPrepApplies(s: Scenario): boolean {
  return (s.method === 'lora' || s.method === 'qlora') && UPCAST_BASES.includes(s.weights);
}

/** prepare_model_for_kbit_training runs and upcasts this base's unquantized parameters. */
export function kbitUpcasts(s: Scenario): boolean {
  return s.mode === 'training' && s.kbitPrep === 'on' && kbitPrepApplies(s);
}

/** Extra bytes of the fp32 upcast: 2 more per unquantized parameter (stored 16-bit by the format). */
export function upcastBytes(params: { total: number; blockLinear: number }): number {
  return 2 * Math.max(0, params.total - params.blockLinear);
}
