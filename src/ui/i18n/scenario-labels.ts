/**
 * Names of scenario keys, architecture keys and option values in both languages. English help
 * comes from the core schema (its `help` text); Chinese help is here, one entry per schema key.
 */
import type { Scenario } from '../../core/types';
import type { ArchFieldSpec } from '../../core/scenario/arch-fields';
import type { Lang } from '../../state/store';

type Prop = Exclude<keyof Scenario, 'arch'>;

export const FIELD_LABEL: Record<Lang, Record<Prop, string>> = {
  en: {
    model: 'Model', params: 'Parameter count', mode: 'Mode', method: 'Method', weights: 'Weight format',
    kv: 'KV cache format', engine: 'Engine', batch: 'Batch size', prompt: 'Prompt tokens', gen: 'Generated tokens',
    seq: 'Sequence length', precision: 'Precision', optimizer: 'Optimizer', gradCkpt: 'Gradient checkpointing',
    gradAccum: 'Gradient accumulation steps', gradZero: 'Gradients between steps',
    compile: 'torch.compile', optimStep: 'Optimizer step', actOffload: 'Activation offloading', lossChunks: 'Loss chunks',
    optimImpl: 'Optimizer implementation', bnbCompute: '4-bit compute dtype',
    attn: 'Attention kernel', loraRank: 'LoRA rank', loraTargets: 'LoRA targets', loraDropout: 'LoRA dropout', adapterDtype: 'LoRA adapter dtype', gpus: 'GPUs in total',
    zero: 'ZeRO stage', tp: 'Tensor parallel', pp: 'Pipeline parallel', offload: 'CPU offload', gpu: 'GPU',
    gpuUtil: 'vLLM GPU memory utilization', ngl: 'GPU layers (-ngl)', ubatch: 'Prefill chunk (ubatch)',
  },
  zh: {
    model: '模型', params: '参数量', mode: '模式', method: '训练方法', weights: '权重格式',
    kv: 'KV 缓存格式', engine: '推理引擎', batch: '批大小', prompt: '提示词 token 数', gen: '生成 token 数',
    seq: '序列长度', precision: '精度', optimizer: '优化器', gradCkpt: '梯度检查点',
    gradAccum: '梯度累积步数', gradZero: '步间梯度处理',
    compile: 'torch.compile 编译', optimStep: '优化器更新时机', actOffload: '激活值卸载', lossChunks: '损失分块数',
    optimImpl: '优化器实现', bnbCompute: '4 位计算精度',
    attn: '注意力实现', loraRank: 'LoRA 秩', loraTargets: 'LoRA 目标模块', loraDropout: 'LoRA dropout 概率', adapterDtype: 'LoRA 适配器精度', gpus: 'GPU 总数',
    zero: 'ZeRO 阶段', tp: '张量并行', pp: '流水线并行', offload: 'CPU 卸载', gpu: 'GPU',
    gpuUtil: 'vLLM 显存占用比例', ngl: 'GPU 层数 (-ngl)', ubatch: '预填充分块 (ubatch)',
  },
};

export const HELP_ZH: Record<Prop, string> = {
  model: '预设的 Hugging Face 模型 id（如 meta-llama/Llama-2-7b-hf），或 custom 加自定义结构',
  params: '只给参数量做快速估算，例如 7b、350m、1.5e9',
  mode: '推理（部署 / 生成）或训练',
  method: '训练方法：全量微调、LoRA、QLoRA（4 比特底座）或冻结部分层',
  weights: '模型权重的存储格式',
  kv: 'KV 缓存的元素类型（q8_0/q4_0 仅 llama.cpp）',
  engine: '推理运行时',
  batch: '每步的序列数（训练时为每张卡的微批）',
  prompt: '推理：每条序列的提示词 token 数',
  gen: '推理：每条序列生成的 token 数',
  seq: '训练：序列长度（token）',
  precision: '训练精度：fp32、AMP（保留 fp32 主权重）或纯 16 位',
  optimizer: '优化器（8 位与分页版本来自 bitsandbytes）',
  gradCkpt: '激活（梯度）检查点',
  gradAccum: '训练：每次优化器更新累积的微批数（gradient_accumulation_steps）；梯度在各微批之间一直保留',
  gradZero: "训练：zero_grad(set_to_none=True) 在步间释放梯度（'none'，PyTorch ≥ 2.0 默认）；'zeros' 保留为零（set_to_none=False，2.0 之前的默认）",
  compile: "训练：用 torch.compile 编译各层（'inductor'）：min-cut 分割器在反向时重算廉价的逐元素运算（归一化内部、SiLU），不再保存它们",
  optimStep: "训练：'in-backward' 在每个参数的梯度就绪后立即更新并释放该梯度（torchtune optimizer_in_bwd），因此不会同时持有全部梯度",
  actOffload: "训练：'cpu' 把保存的激活值移到 CPU 锁页内存（torchtune enable_activation_offloading；配合检查点时为各层输入），GPU 上只留正在使用的部分",
  lossChunks: '训练：交叉熵按块计算 LM 头输出（torchtune CEWithChunkedOutputLoss 默认 8 块），fp32 上转型每次只存在一块。1 = 不分块',
  optimImpl: "训练：优化器更新的实现。'foreach'（CUDA 上 torch.optim 的默认）会为全部参数临时分配一份与一个状态同样大的缓冲；'fused'（fused=True）不需要；'for-loop'（foreach=False，transformers 旧的 adamw_hf）每次只需一个参数大小",
  bnbCompute: 'bitsandbytes nf4/fp4 的 bnb_4bit_compute_dtype。默认 float32（transformers BitsAndBytesConfig）会把反量化后的 16 位权重再转成 fp32 参与矩阵乘；QLoRA 等配方设为 bf16',
  attn: '注意力内核：FlashAttention、PyTorch SDPA 或 eager（会物化注意力分数矩阵）',
  loraRank: 'LoRA 的秩 r',
  loraTargets: '加 LoRA 的投影矩阵',
  loraDropout: 'LoRA dropout 概率（PEFT lora_dropout，默认 0）。大于 0 时每个适配器为反向保存自己的 dropout 输出和 1 字节掩码',
  adapterDtype: "纯 bf16/fp16 模型上 LoRA 适配器的精度：'fp32'（PEFT autocast_adapter_dtype=True，默认）把适配器及其梯度和优化器状态升为 fp32；'base' 保持模型精度（torchtune）",
  gpus: 'GPU 总数（数据并行 × tp × pp）',
  zero: 'DeepSpeed ZeRO 阶段（3 约等于 FSDP 全分片）',
  tp: '张量并行度',
  pp: '流水线并行度',
  offload: 'ZeRO-Offload：把优化器状态（ZeRO ≥ 1）或连同参数（ZeRO-3）放到 CPU',
  gpu: 'GPU 型号或自定义容量',
  gpuUtil: 'vLLM 的 gpu_memory_utilization（vLLM 可用的显存比例）',
  ngl: 'llama.cpp 放到 GPU 上的层数（-ngl）',
  ubatch: '预填充分块：llama.cpp n_ubatch / vLLM max_num_batched_tokens',
};

/** Option values that are words (others, like format names, are shown as written). */
const OPTION_LABEL: Record<Lang, Record<string, string>> = {
  en: {
    'mode.inference': 'Inference', 'mode.training': 'Training',
    'method.full': 'Full fine-tune', 'method.lora': 'LoRA', 'method.qlora': 'QLoRA', 'method.freeze': 'Freeze (partial)',
    'engine.transformers': 'HF Transformers', 'engine.vllm': 'vLLM', 'engine.llama.cpp': 'llama.cpp',
    'precision.fp32': 'fp32', 'precision.amp-fp16': 'AMP fp16 (fp32 master)', 'precision.amp-bf16': 'AMP bf16 (fp32 master)',
    'precision.bf16': 'pure bf16', 'precision.fp16': 'pure fp16',
    'optimizer.adamw': 'AdamW', 'optimizer.adamw-8bit': 'AdamW 8-bit', 'optimizer.paged-adamw': 'Paged AdamW',
    'optimizer.paged-adamw-8bit': 'Paged AdamW 8-bit', 'optimizer.sgd': 'SGD', 'optimizer.sgd-momentum': 'SGD + momentum',
    'optimizer.adafactor': 'Adafactor', 'optimizer.lion': 'Lion',
    'gradCkpt.none': 'None', 'gradCkpt.full': 'Full (every layer)', 'gradCkpt.selective': 'Selective (attention only)',
    'gradZero.none': 'Freed (set_to_none=True)', 'gradZero.zeros': 'Kept as zeros (set_to_none=False)',
    'compile.none': 'Off (eager)', 'compile.inductor': 'Inductor',
    'optimStep.after-backward': 'After backward', 'optimStep.in-backward': 'Fused into backward',
    'actOffload.none': 'Off', 'actOffload.cpu': 'To CPU',
    'adapterDtype.fp32': 'fp32 (PEFT default)', 'adapterDtype.base': 'Model dtype (torchtune)',
    'optimImpl.foreach': 'foreach (PyTorch default)', 'optimImpl.fused': 'fused', 'optimImpl.for-loop': 'for-loop (one tensor at a time)',
    'attn.flash': 'FlashAttention', 'attn.sdpa': 'SDPA', 'attn.eager': 'Eager',
    'offload.none': 'None', 'offload.optimizer': 'Optimizer state', 'offload.params': 'Optimizer + parameters',
    'zero.0': 'Off (0)', 'zero.1': '1: optimizer', 'zero.2': '2: + gradients', 'zero.3': '3: + parameters',
  },
  zh: {
    'mode.inference': '推理', 'mode.training': '训练',
    'method.full': '全量微调', 'method.lora': 'LoRA', 'method.qlora': 'QLoRA', 'method.freeze': '冻结（部分训练）',
    'engine.transformers': 'HF Transformers', 'engine.vllm': 'vLLM', 'engine.llama.cpp': 'llama.cpp',
    'precision.fp32': 'fp32', 'precision.amp-fp16': 'AMP fp16（fp32 主权重）', 'precision.amp-bf16': 'AMP bf16（fp32 主权重）',
    'precision.bf16': '纯 bf16', 'precision.fp16': '纯 fp16',
    'optimizer.adamw': 'AdamW', 'optimizer.adamw-8bit': 'AdamW 8 位', 'optimizer.paged-adamw': '分页 AdamW',
    'optimizer.paged-adamw-8bit': '分页 AdamW 8 位', 'optimizer.sgd': 'SGD', 'optimizer.sgd-momentum': 'SGD + 动量',
    'optimizer.adafactor': 'Adafactor', 'optimizer.lion': 'Lion',
    'gradCkpt.none': '不使用', 'gradCkpt.full': '全部（每层）', 'gradCkpt.selective': '选择性（仅注意力）',
    'gradZero.none': '释放（set_to_none=True）', 'gradZero.zeros': '保留为零（set_to_none=False）',
    'compile.none': '关闭（eager）', 'compile.inductor': 'Inductor',
    'optimStep.after-backward': '反向之后', 'optimStep.in-backward': '融合进反向',
    'actOffload.none': '关闭', 'actOffload.cpu': '卸载到 CPU',
    'adapterDtype.fp32': 'fp32（PEFT 默认）', 'adapterDtype.base': '与模型相同（torchtune）',
    'optimImpl.foreach': 'foreach（PyTorch 默认）', 'optimImpl.fused': 'fused（融合内核）', 'optimImpl.for-loop': '逐个张量循环',
    'attn.flash': 'FlashAttention', 'attn.sdpa': 'SDPA', 'attn.eager': 'Eager',
    'offload.none': '不卸载', 'offload.optimizer': '优化器状态', 'offload.params': '优化器 + 参数',
    'zero.0': '关闭 (0)', 'zero.1': '1：优化器', 'zero.2': '2：+ 梯度', 'zero.3': '3：+ 参数',
  },
};

/** Label of an option value; format names (bf16, gguf-q4_k_m) read the same in both languages. */
export function optionLabel(lang: Lang, prop: string, value: string): string {
  return OPTION_LABEL[lang][`${prop}.${value}`] ?? value.replace(/^gguf-/, 'GGUF ').replace(/^gptq-/, 'GPTQ ').replace(/^awq-/, 'AWQ ');
}

type ArchProp = ArchFieldSpec['prop'];
/** Architecture field names; a key missing here falls back to the schema's external name. */
export const ARCH_LABEL: Record<Lang, Partial<Record<ArchProp, string>>> = {
  en: {
    family: 'Family', hidden: 'Hidden size', layers: 'Layers', heads: 'Attention heads', kvHeads: 'KV heads',
    headDim: 'Head dim', ffn: 'MLP intermediate size', vocab: 'Vocabulary', gatedMlp: 'Gated MLP (SwiGLU)',
    norm: 'Norm', tiedEmbeddings: 'Tied embeddings', qkvBias: 'q/k/v bias', maxContext: 'Max context',
    'moe.experts': 'Experts', 'moe.expertsPerToken': 'Experts per token', 'moe.expertFfn': 'Expert MLP size',
    'moe.sharedExperts': 'Shared experts', 'moe.sharedFfn': 'Shared expert MLP size', 'moe.denseLayers': 'Leading dense layers',
    'moe.layerFreq': 'MoE every n-th layer',
  },
  zh: {
    family: '架构族', hidden: '隐藏维度', layers: '层数', heads: '注意力头数', kvHeads: 'KV 头数',
    headDim: '每头维度', ffn: 'MLP 中间维度', vocab: '词表大小', gatedMlp: '门控 MLP（SwiGLU）',
    norm: '归一化', tiedEmbeddings: '共享词嵌入', qkvBias: 'q/k/v 偏置', maxContext: '最大上下文',
    'moe.experts': '专家数', 'moe.expertsPerToken': '每 token 激活专家数', 'moe.expertFfn': '专家 MLP 维度',
    'moe.sharedExperts': '共享专家数', 'moe.sharedFfn': '共享专家 MLP 维度', 'moe.denseLayers': '前置稠密层数',
    'moe.layerFreq': '每隔 n 层一个 MoE 层',
  },
};
