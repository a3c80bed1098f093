import type { Method, Scenario } from '../../core/types';

/**
 * What picking a training method in the form also sets, so a newcomer sees the setup people run,
 * not the method on top of full-precision defaults.
 *
 * QLoRA (Dettmers et al. 2023, "QLoRA: Efficient Finetuning of Quantized LLMs"): NF4 base weights,
 * bf16 compute (BitsAndBytesConfig(bnb_4bit_compute_dtype=torch.bfloat16)), gradient checkpointing
 * (peft/utils/other.py prepare_model_for_kbit_training: use_gradient_checkpointing=True by default) and a
 * paged optimizer (TrainingArguments(optim="paged_adamw_8bit") in Hugging Face's 4-bit QLoRA
 * notebook; the paper's own qlora.py defaults to paged_adamw_32bit).
 */
export const METHOD_RECIPE: Partial<Record<Method, Partial<Scenario>>> = {
  qlora: { weights: 'nf4', bnbCompute: 'bf16', gradCkpt: 'full', optimizer: 'paged-adamw-8bit' },
};

/** The change a method pick makes: the method, plus its recipe when it has one. */
export function methodChange(method: Method): Partial<Scenario> {
  return { method, ...METHOD_RECIPE[method] };
}
