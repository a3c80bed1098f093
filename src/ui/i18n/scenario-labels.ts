/**
 * Names of scenario keys and option values in the page language (architecture keys: arch-labels.ts). English is
 * here; Chinese (with the Chinese help of each schema key) is in scenario-labels-zh.ts, which comes
 * with the Chinese chunk: until it has arrived, Chinese falls back to these English names.
 */
import type { Scenario } from '../../core/types';
import type { ArchFieldSpec } from '../../core/scenario/arch-fields';
import type { Lang } from '../../state/store';
import { zhTables } from './zh-loader';

export type FieldProp = Exclude<keyof Scenario, 'arch'>;
export type ArchProp = ArchFieldSpec['prop'];

export const FIELD_LABEL_EN: Record<FieldProp, string> = {
  model: 'Model',
  params: 'Parameter count',
  mode: 'Mode',
  method: 'Method',
  weights: 'Weight format',
  kv: 'KV cache format',
  kvResidual: 'Quantized cache: unquantized recent tokens (residual_length)',
  engine: 'Engine',
  batch: 'Batch size',
  prompt: 'Prompt tokens',
  gen: 'Generated tokens',
  images: 'Images per sequence',
  resolution: 'Image side (px)',
  seq: 'Sequence length',
  precision: 'Precision',
  optimizer: 'Optimizer',
  gradCkpt: 'Gradient checkpointing',
  gradAccum: 'Gradient accumulation steps',
  gradZero: 'Gradients between steps',
  compile: 'torch.compile',
  optimStep: 'Optimizer step',
  actOffload: 'Activation offloading',
  lossChunks: 'Loss chunks',
  logitsPath: 'Logits / loss code path',
  lengths: 'Sample lengths',
  lenMean: 'Mean sample length',
  lenSpread: 'Length spread (σ)',
  allocConf: 'Allocator setting',
  optimImpl: 'Optimizer implementation',
  bnbCompute: '4-bit compute dtype',
  doubleQuant: '4-bit double quantization',
  bnbVersion: 'bitsandbytes version',
  groupSize: 'GPTQ / AWQ group size',
  descAct: 'GPTQ act-order (desc_act)',
  gptqKernel: 'GPTQ kernel',
  attn: 'Attention kernel',
  loraRank: 'LoRA rank',
  loraTargets: 'LoRA targets',
  loraDropout: 'LoRA dropout',
  adapterDtype: 'LoRA adapter dtype',
  autocast: 'Autocast (16-bit weights)',
  kbitPrep: 'prepare_model_for_kbit_training',
  loraSave: 'Trained embedding / head (modules_to_save)',
  gpus: 'GPUs in total',
  zero: 'ZeRO stage',
  tp: 'Tensor parallel',
  pp: 'Pipeline parallel',
  split: 'Layer split (device_map)',
  offload: 'CPU offload',
  gpu: 'GPU',
  zeroImpl: 'Sharding framework',
  dsReduceBucket: 'DeepSpeed reduce bucket',
  dsOverlapComm: 'DeepSpeed overlap_comm',
  dsPrefetchBucket: 'ZeRO-3 prefetch bucket',
  dsPersistThreshold: 'ZeRO-3 persistence threshold',
  dsMaxLive: 'ZeRO-3 max live parameters',
  dsReuseDistance: 'ZeRO-3 max reuse distance',
  gpuUtil: 'vLLM GPU memory utilization',
  ngl: 'GPU layers (-ngl)',
  tensorSplit: 'Tensor split (--tensor-split)',
  ubatch: 'Prefill chunk (ubatch)',
  mfu: 'Assumed MFU (step time)',
  cfg: 'Classifier-free guidance',
  offloadModel: 'Model CPU offload',
};

/** Option values that are words (others, like format names, are shown as written). */
const OPTION_LABEL_EN: Record<string, string> = {
  'mode.inference': 'Inference',
  'mode.training': 'Training',
  'method.full': 'Full fine-tune',
  'method.lora': 'LoRA',
  'method.qlora': 'QLoRA',
  'method.freeze': 'Freeze (partial)',
  'engine.transformers': 'HF Transformers',
  'engine.vllm': 'vLLM',
  'engine.llama.cpp': 'llama.cpp',
  'precision.fp32': 'fp32',
  'precision.amp-fp16': 'AMP fp16 (fp32 master)',
  'precision.amp-bf16': 'AMP bf16 (fp32 master)',
  'precision.bf16': 'pure bf16',
  'precision.fp16': 'pure fp16',
  'optimizer.adamw': 'AdamW',
  'optimizer.adamw-8bit': 'AdamW 8-bit',
  'optimizer.paged-adamw': 'Paged AdamW',
  'optimizer.paged-adamw-8bit': 'Paged AdamW 8-bit',
  'optimizer.sgd': 'SGD',
  'optimizer.sgd-momentum': 'SGD + momentum',
  'optimizer.adafactor': 'Adafactor',
  'optimizer.lion': 'Lion',
  'gradCkpt.none': 'None',
  'gradCkpt.full': 'Full (every layer)',
  'gradCkpt.selective': 'Selective (attention only)',
  'gradZero.none': 'Freed (set_to_none=True)',
  'gradZero.zeros': 'Kept as zeros (set_to_none=False)',
  'lengths.fixed': 'Fixed (all at seq)',
  'lengths.varied': 'Varied (truncated at seq)',
  'compile.none': 'Off (eager)',
  'compile.inductor': 'Inductor',
  'optimStep.after-backward': 'After backward',
  'optimStep.in-backward': 'Fused into backward',
  'actOffload.none': 'Off',
  'actOffload.cpu': 'To CPU',
  'split.none': 'None (one GPU per process)',
  'split.layers': 'Layers (device_map="auto")',
  'adapterDtype.fp32': 'fp32 (PEFT default)',
  'adapterDtype.base': 'Model dtype (torchtune)',
  'loraSave.none': 'None',
  'loraSave.embed': 'Embedding',
  'loraSave.head': 'LM head',
  'loraSave.embed,head': 'Embedding + LM head',
  'allocConf.default': 'Default (fixed segments)',
  'allocConf.expandable': 'expandable_segments:True',
  'autocast.on': 'On (HF Trainer bf16=True)',
  'autocast.off': 'Off (torchtune, plain loops)',
  'doubleQuant.auto': 'Auto (nf4 on, fp4 off)',
  'doubleQuant.on': 'On',
  'doubleQuant.off': 'Off',
  'bnbVersion.current': '0.43.2 or later',
  'bnbVersion.legacy': '0.43.1 or earlier (keeps more inputs)',
  'descAct.off': 'Off',
  'descAct.on': 'On (act-order)',
  'gptqKernel.auto': 'Auto (4-bit: ExLlama v1, 8-bit: Triton)',
  'gptqKernel.exllamav2': 'ExLlama v2 (GPTQModel)',
  'gptqKernel.exllama': 'ExLlama v1 (AutoGPTQ)',
  'gptqKernel.triton': 'Triton (no buffers)',
  'kbitPrep.on': 'On (QLoRA recipes)',
  'kbitPrep.off': 'Off (torchtune, plain get_peft_model)',
  'optimImpl.foreach': 'foreach (PyTorch default)',
  'optimImpl.fused': 'fused',
  'optimImpl.for-loop': 'for-loop (one tensor at a time)',
  'logitsPath.auto': 'Auto (by model)',
  'logitsPath.current': 'transformers ≥ 4.46',
  'logitsPath.upcast-in-model': 'transformers < 4.45 (fp32 in forward)',
  'logitsPath.remote-code': 'Remote code (16-bit, whole prompt)',
  'logitsPath.torchtune': 'torchtune',
  'attn.flash': 'FlashAttention',
  'attn.sdpa': 'SDPA',
  'attn.eager': 'Eager',
  'offload.none': 'None',
  'offload.optimizer': 'Optimizer state',
  'offload.params': 'Optimizer + parameters',
  'zero.0': 'Off (0)',
  'zero.1': '1: optimizer',
  'zero.2': '2: + gradients',
  'zero.3': '3: + parameters',
  'zeroImpl.deepspeed': 'DeepSpeed',
  'zeroImpl.fsdp': 'PyTorch FSDP',
  'dsOverlapComm.auto': 'DeepSpeed default (ZeRO-3 only)',
  'dsOverlapComm.on': 'On',
  'dsOverlapComm.off': 'Off',
  'cfg.auto': "Pipeline's default",
  'cfg.on': 'On (negative prompt)',
  'cfg.off': 'Off',
  'offloadModel.off': 'Off (pipe.to("cuda"))',
  'offloadModel.on': 'On (enable_model_cpu_offload)',
};

/** A scenario key's name. */
export function fieldLabel(lang: Lang, prop: FieldProp): string {
  const zh = lang === 'zh' ? zhTables() : null;
  return zh?.FIELD_LABEL_ZH[prop] ?? FIELD_LABEL_EN[prop];
}

/** Chinese help of a scenario key, or null (English, or Chinese not yet loaded: the schema's help then). */
export function zhHelp(lang: Lang, prop: FieldProp): string | null {
  return lang === 'zh' ? (zhTables()?.HELP_ZH[prop] ?? null) : null;
}

/** Label of an option value; format names (bf16, gguf-q4_k_m) read the same in both languages. */
export function optionLabel(lang: Lang, prop: string, value: string): string {
  const zh = lang === 'zh' ? zhTables() : null;
  return (
    zh?.OPTION_LABEL_ZH[`${prop}.${value}`] ??
    OPTION_LABEL_EN[`${prop}.${value}`] ??
    value
      .replace(/^gguf-/, 'GGUF ')
      .replace(/^gptq-/, 'GPTQ ')
      .replace(/^awq-/, 'AWQ ')
  );
}
