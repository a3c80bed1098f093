/**
 * "Check it on your GPU": runnable Python that sets up the current scenario with the libraries
 * the estimate models (transformers / PEFT / bitsandbytes / torch.optim; the vLLM and llama.cpp
 * command lines) and prints the counters the estimate predicts. Random token ids, so nothing but
 * the model is downloaded. What one short script cannot reproduce (multi-GPU sharding, compile,
 * chunked loss, ...) is named in a comment instead of silently left out.
 */
import { doubleQuantOn } from '../../core/formats/weights';
import { DEFAULT_GROUP_SIZE } from '../../core/formats/quantized';
import { resolveGptqKernel, type ResolvedGptqKernel } from '../../core/formats/gptq-kernel';
import { kbitUpcasts } from '../../core/training/kbit-prep';
import { autocastActive } from '../../core/training/autocast';
import { MiB } from '../../core/units';
import type { Estimate, LoraTarget, Scenario, WeightFormat } from '../../core/types';

/** Bytes as whole MiB, the unit the script and nvidia-smi print. */
export const mib = (b: number) => Math.round(b / MiB);

/** The memory snapshot the Python scripts save for the Allocator lab (torch.cuda.memory._dump_snapshot). */
export const SNAPSHOT_FILE = 'gpu-memory-check.pickle';

/** The scripts that run PyTorch themselves (not the vLLM / llama.cpp command lines) record and save a snapshot. */
export const savesSnapshot = (s: Scenario): boolean => s.mode === 'training' || s.engine === 'transformers';

/**
 * Memory history on for the measured step: torch.cuda.memory._record_memory_history (PyTorch ≥ 2.1) keeps the
 * last `max_entries` allocation events; 100000 is the value of PyTorch's "Understanding CUDA Memory Usage" guide.
 */
const RECORD = 'torch.cuda.memory._record_memory_history(max_entries=100000)  # PyTorch >= 2.1: record every allocation of the step';

const TORCH_DTYPE = { fp64: 'torch.float64', fp32: 'torch.float32', fp16: 'torch.float16', bf16: 'torch.bfloat16' } as const;
const ATTN = { flash: 'flash_attention_2', sdpa: 'sdpa', eager: 'eager' } as const;
/** PEFT target module names of Llama-style models (docs/reference/formulas.md §6.1). */
const MODULE: Record<LoraTarget, string> = { q: 'q_proj', k: 'k_proj', v: 'v_proj', o: 'o_proj', gate: 'gate_proj', up: 'up_proj', down: 'down_proj' };

/** GPTQConfig loading arguments that pick the kernel (formats/gptq-kernel.ts): ExLlama v1 / v2, or neither. */
const GPTQ_KERNEL_ARG: Record<ResolvedGptqKernel, string> = {
  exllama: 'exllama_config={"version": 1}',
  exllamav2: 'exllama_config={"version": 2}',
  triton: 'use_exllama=False',
};

/** transformers' config class the load arguments of a storage format name, if any. */
function configClass(w: WeightFormat): string {
  if (w === 'bnb-int8' || w === 'nf4' || w === 'fp4') return ', BitsAndBytesConfig';
  return w === 'gptq-int4' || w === 'gptq-int8' ? ', GPTQConfig' : '';
}

/** `from_pretrained` keyword arguments for a storage format; null when transformers does not load it this way (training loads GPTQ without ExLlama, which has no backward). */
function loadArgs(s: Scenario, w: WeightFormat): string | null {
  const compute = TORCH_DTYPE[s.bnbCompute];
  switch (w) {
    case 'fp64':
    case 'fp32':
    case 'fp16':
    case 'bf16':
      return `torch_dtype=${TORCH_DTYPE[w]}`;
    case 'bnb-int8':
      return 'quantization_config=BitsAndBytesConfig(load_in_8bit=True), torch_dtype=torch.float16';
    case 'nf4':
    case 'fp4':
      return `quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="${w}", bnb_4bit_use_double_quant=${doubleQuantOn(s) ? 'True' : 'False'}, bnb_4bit_compute_dtype=${compute}), torch_dtype=torch.bfloat16`;
    case 'gptq-int4':
    case 'gptq-int8':
      return `quantization_config=GPTQConfig(bits=${w === 'gptq-int4' ? 4 : 8}, ${GPTQ_KERNEL_ARG[s.mode === 'training' ? 'triton' : (resolveGptqKernel(w, s.gptqKernel) ?? 'triton')]}), torch_dtype=torch.float16  # point MODEL at the GPTQ checkpoint (group_size ${s.groupSize ?? DEFAULT_GROUP_SIZE}, desc_act ${s.descAct === 'on' ? 'True' : 'False'} in its quantize_config)`;
    case 'awq-int4':
      return `torch_dtype=torch.float16  # point MODEL at the AWQ checkpoint (group_size ${s.groupSize ?? DEFAULT_GROUP_SIZE} in its quantize_config)`;
    default:
      return null;
  }
}

function counters(est: Estimate): string[] {
  return [
    'torch.cuda.synchronize()',
    `print("allocated MiB", torch.cuda.max_memory_allocated() / 2**20)  # estimate: ${mib(est.allocatedBytes)}`,
    `print("reserved  MiB", torch.cuda.max_memory_reserved() / 2**20)   # estimate: ${mib(est.reservedBytes)}`,
    `# device total (nvidia-smi, MiB) estimate: ${mib(est.deviceBytes)}`,
  ];
}

/** Saves the recorded history (a pickle the Allocator lab imports) and says so. */
const dumpSnapshot = (): string[] => [
  `torch.cuda.memory._dump_snapshot("${SNAPSHOT_FILE}")`,
  `print("memory snapshot saved to ${SNAPSHOT_FILE}: drop it into the calculator's Allocator lab (Simulator, Import)")`,
];

function optimizerLine(s: Scenario): string {
  const params = '(p for p in model.parameters() if p.requires_grad)';
  const impl = s.optimImpl === 'fused' ? ', fused=True' : s.optimImpl === 'for-loop' ? ', foreach=False' : '';
  switch (s.optimizer) {
    case 'adamw':
      return `opt = torch.optim.AdamW(${params}, lr=1e-5${impl})`;
    case 'adamw-8bit':
      return `opt = bnb.optim.AdamW8bit(${params}, lr=1e-5)`;
    case 'paged-adamw':
      return `opt = bnb.optim.PagedAdamW(${params}, lr=1e-5)`;
    case 'paged-adamw-8bit':
      return `opt = bnb.optim.PagedAdamW8bit(${params}, lr=1e-5)`;
    case 'sgd':
      return `opt = torch.optim.SGD(${params}, lr=1e-3)`;
    case 'sgd-momentum':
      return `opt = torch.optim.SGD(${params}, lr=1e-3, momentum=0.9)`;
    case 'adafactor':
      return `opt = transformers.optimization.Adafactor(${params}, lr=1e-5, relative_step=False, scale_parameter=False)`;
    case 'lion':
      return `opt = bnb.optim.Lion(${params}, lr=1e-5)`;
  }
}

/** Scenario settings one single-GPU script does not reproduce, for a comment. */
function notReproduced(s: Scenario): string[] {
  const out: string[] = [];
  if (s.gpus > 1 || s.zero > 0 || s.tp > 1 || s.pp > 1)
    out.push(`multi-GPU (gpus=${s.gpus}, zero=${s.zero}, tp=${s.tp}, pp=${s.pp}): launch your DeepSpeed / FSDP / Megatron config; this script measures one GPU`);
  if (s.mode === 'training') {
    if (s.compile !== 'none') out.push('torch.compile of the layers (e.g. torchtune compile=True)');
    if (s.lossChunks > 1) out.push(`a cross-entropy over ${s.lossChunks} chunks (torchtune CEWithChunkedOutputLoss)`);
    if (s.optimStep === 'in-backward') out.push('the optimizer step inside backward (torchtune optimizer_in_bwd)');
    if (s.actOffload !== 'none') out.push('activation offloading (torchtune enable_activation_offloading)');
    if (s.adapterDtype === 'base') out.push('adapters kept in the model dtype (get_peft_model(..., autocast_adapter_dtype=False))');
  }
  return out.length ? ['# not set up below, set it up as in your recipe:', ...out.map((x) => `#   - ${x}`)] : [];
}

function inference(s: Scenario, est: Estimate, model: string): string[] {
  if (s.engine === 'vllm') {
    return [
      `vllm serve ${model} --gpu-memory-utilization ${s.gpuUtil} --max-model-len ${s.prompt + s.gen} --tensor-parallel-size ${s.tp}`,
      `# compare its start-up log ("model weights take", "KV cache") with the estimate: ${mib(est.deviceBytes)} MiB on the device`,
    ];
  }
  if (s.engine === 'llama.cpp') {
    const kv = s.kv === 'q8_0' || s.kv === 'q4_0' ? ` -ctk ${s.kv} -ctv ${s.kv} -fa` : '';
    return [
      `llama-cli -m ${model}.${s.weights.replace(/^gguf-/, '').toUpperCase()}.gguf -c ${s.prompt + s.gen} -ngl ${s.ngl ?? 999}${s.ubatch ? ` -ub ${s.ubatch}` : ''}${kv} -n ${s.gen}`,
      `# compare its "buffer size" log lines (model, KV, compute) with the estimate: ${mib(est.deviceBytes)} MiB on the device`,
    ];
  }
  const load = loadArgs(s, s.weights);
  return [
    'import torch',
    `from transformers import AutoModelForCausalLM${configClass(s.weights)}`,
    `MODEL = "${model}"`,
    `model = AutoModelForCausalLM.from_pretrained(MODEL, ${load ?? 'torch_dtype=torch.bfloat16  # this format is not loaded by transformers'}, device_map="cuda", attn_implementation="${ATTN[s.attn]}")`,
    '# no reset: like the estimate, the peak counts from process start (loading included)',
    `ids = torch.randint(0, model.config.vocab_size, (${s.batch}, ${s.prompt}), device="cuda")`,
    RECORD,
    'with torch.no_grad():',
    `    model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=${s.gen}, min_new_tokens=${s.gen}, do_sample=False)`,
    ...counters(est),
    ...dumpSnapshot(),
  ];
}

/** PEFT modules_to_save for lora-save (Llama module names). */
function saveModules(s: Scenario): string {
  if (s.loraSave === 'none') return '';
  const names = [...(s.loraSave.includes('embed') ? ['"embed_tokens"'] : []), ...(s.loraSave.includes('head') ? ['"lm_head"'] : [])];
  return `, modules_to_save=[${names.join(', ')}]`;
}

function training(s: Scenario, est: Estimate, model: string): string[] {
  const amp = s.precision === 'amp-fp16' || s.precision === 'amp-bf16';
  // full fine-tuning: parameters in the training dtype (fp32 masters under AMP); otherwise the frozen base in its storage format
  const base = s.method !== 'full' ? loadArgs(s, s.weights) : s.precision === 'fp32' || amp ? 'torch_dtype=torch.float32' : `torch_dtype=${TORCH_DTYPE[s.precision === 'fp16' ? 'fp16' : 'bf16']}`;
  const peft = s.method === 'lora' || s.method === 'qlora';
  const prep = kbitUpcasts(s);
  const bnbOpt = s.optimizer.includes('8bit') || s.optimizer.startsWith('paged') || s.optimizer === 'lion';
  const targets = s.loraTargets.map((t) => `"${MODULE[t]}"`).join(', ');
  const autocast = autocastActive(s) ? `torch.autocast("cuda", dtype=${s.precision.endsWith('fp16') ? 'torch.float16' : 'torch.bfloat16'})` : 'contextlib.nullcontext()';
  return [
    `import contextlib, torch${s.optimizer === 'adafactor' ? ', transformers' : ''}${bnbOpt ? ', bitsandbytes as bnb' : ''}`,
    `from transformers import AutoModelForCausalLM${s.method !== 'full' ? configClass(s.weights) : ''}`,
    ...(peft ? [`from peft import LoraConfig, get_peft_model${prep ? ', prepare_model_for_kbit_training' : ''}`] : []),
    `MODEL = "${model}"`,
    `model = AutoModelForCausalLM.from_pretrained(MODEL, ${base ?? 'torch_dtype=torch.bfloat16'}, device_map="cuda", attn_implementation="${ATTN[s.attn]}")`,
    ...(prep ? [`model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=${s.gradCkpt !== 'none' ? 'True' : 'False'})`] : []),
    ...(s.gradCkpt !== 'none' ? ['model.gradient_checkpointing_enable()'] : []),
    ...(peft
      ? [`model = get_peft_model(model, LoraConfig(r=${s.loraRank}, lora_alpha=${2 * s.loraRank}, lora_dropout=${s.loraDropout}, target_modules=[${targets}]${saveModules(s)}, task_type="CAUSAL_LM"))`]
      : []),
    ...(s.method === 'freeze' ? ['# freeze: set requires_grad=False on every parameter except the layers you train'] : []),
    optimizerLine(s),
    ...notReproduced(s),
    `ids = torch.randint(0, model.config.vocab_size, (${s.batch}, ${s.seq}), device="cuda")`,
    RECORD,
    '# two steps: the optimizer state exists from the first step on',
    'for step in range(2):',
    `    for micro in range(${s.gradAccum}):`,
    `        with ${autocast}:`,
    '            loss = model(input_ids=ids, labels=ids).loss',
    '        loss.backward()',
    '    opt.step()',
    `    opt.zero_grad(set_to_none=${s.gradZero === 'none' ? 'True' : 'False'})`,
    ...counters(est),
    ...dumpSnapshot(),
  ];
}

/** Python (or the engine's command line) that measures the same scenario on a real GPU. */
export function checkSnippet(s: Scenario, est: Estimate): string {
  const model = s.model && s.model !== 'custom' ? s.model : '<your-model>';
  const lines = s.mode === 'training' ? training(s, est, model) : [...inference(s, est, model), ...(s.engine === 'transformers' ? notReproduced(s) : [])];
  return lines.join('\n');
}
