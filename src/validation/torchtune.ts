/**
 * torchtune README rows (pytorch/torchtune README.md at 30b8519e "Memory and training speed" and
 * 1814feb1 "Optimization flags") → Scenario. The README states batch, packed length, compile and
 * the technique stack; what it does not restate comes from the recipe's default config at the
 * README's commit (the rows' notes say so), cited per entry below. Pure: no DOM, no Node APIs.
 *
 * - Loss: 1814feb1 rows add CEWithChunkedOutputLoss as a step ("+ Chunked Cross Entropy"), so rows
 *   before it use the plain loss (logits-path torchtune: the decoder returns fp32 logits and
 *   `_loss_step` deletes them after the loss); 30b8519e rows use their configs' `loss:` (CEWithChunkedOutputLoss
 *   in 8B_full/lora/qlora_single_device.yaml), 8 chunks (its default `num_output_chunks`).
 * - Optimizer: "bitsandbytes PagedAdamW8bit" → paged-adamw-8bit; "AdamW8bit" → adamw-8bit;
 *   torch AdamW → adamw (the 3B full config names bnb PagedAdamW8bit with no `fused`, so swapping in
 *   torch.optim.AdamW gives torch's default multi-tensor step).
 * - LoRA rank and targets: the row's own values when stated, else the config's (table below). Those
 *   configs set `optimizer.fused: True` (optim-impl fused). QLoRA's torchao NF4 linear computes
 *   `F.linear(input, weight.to(input.dtype))` (torchao dtypes/nf4tensor.py `linear_nf4`, used by
 *   torchtune modules/low_precision/nf4_linear.py): the dequantized weight is bf16 (bnb-compute bf16).
 * - Adapters: the recipes build the model under `dtype: bf16` (training.set_default_dtype) and
 *   `LoRALinear` creates lora_a / lora_b as plain nn.Linear in that default dtype, with no fp32
 *   upcast, so adapters, gradients and AdamW states are bf16 (adapter-dtype base). lora_dropout is
 *   left at the scenario default 0.0 (the torchtune 3.1 LoRA configs set `lora_dropout: 0.0`).
 * - A6000 rows restate the 4090 rows' settings but measure twice the memory with the same model, batch
 *   and length: their real settings are not published, so they are skipped.
 * - Multi-GPU FSDP rows (70B, 405B) are skipped: FSDP2 CPU offload and its per-GPU buffers are not
 *   described by the scenario.
 */
import type { LoraTarget, Scenario } from '../core/types';

/** torchtune LoRA defaults at the README commits (recipes/configs/…, read at that commit). */
const LORA_CONFIGS: Record<string, { rank: number; targets: LoraTarget[]; source: string }> = {
  // lora_attn_modules ['q_proj', 'v_proj'], apply_lora_to_mlp False, lora_rank 8
  '30b8519e Llama-3.1-8B LoRA': { rank: 8, targets: ['q', 'v'], source: 'recipes/configs/llama3_1/8B_lora_single_device.yaml@30b8519e' },
  // lora_attn_modules ['q_proj', 'v_proj', 'k_proj', 'output_proj'], apply_lora_to_mlp True, lora_rank 8
  '30b8519e Llama-3.1-8B QLoRA': { rank: 8, targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'], source: 'recipes/configs/llama3_1/8B_qlora_single_device.yaml@30b8519e' },
  // lora_attn_modules ['q_proj', 'v_proj', 'output_proj'], apply_lora_to_mlp True, lora_rank 64
  '1814feb1 Llama-3.2-3B LoRA': { rank: 64, targets: ['q', 'v', 'o', 'gate', 'up', 'down'], source: 'recipes/configs/llama3_2/3B_lora_single_device.yaml@1814feb1' },
  '1814feb1 Llama-3.2-3B QLoRA': { rank: 64, targets: ['q', 'v', 'o', 'gate', 'up', 'down'], source: 'recipes/configs/llama3_2/3B_qlora_single_device.yaml@1814feb1' },
};

/** torchtune's LoRA module names → our target keys ('mlp' = w1, w2, w3). */
const MODULES: Record<string, LoraTarget[]> = {
  q_proj: ['q'],
  k_proj: ['k'],
  v_proj: ['v'],
  output_proj: ['o'],
  mlp: ['gate', 'up', 'down'],
};

export interface TorchtuneRow {
  source: string;
  model: string;
  mode: string;
  batch: number | null;
  seq_in: number | null;
  settings: Record<string, unknown>;
}

export type TorchtuneMapped = { ok: true; scenario: Partial<Scenario>; method: string } | { ok: false; code: string; text: string };

const commitOf = (source: string): string => (source.includes('1814feb1') ? '1814feb1' : source.includes('30b8519e') ? '30b8519e' : '');

function optimizerOf(name: string): Scenario['optimizer'] {
  if (name.includes('PagedAdamW8bit')) return 'paged-adamw-8bit';
  if (name.includes('AdamW8bit')) return 'adamw-8bit';
  return 'adamw';
}

function loraOf(commit: string, row: TorchtuneRow): { rank: number; targets: LoraTarget[] } | null {
  const st = row.settings;
  const cfg = LORA_CONFIGS[`${commit} ${row.model} ${row.mode}`];
  const rank = typeof st.lora_rank === 'number' ? st.lora_rank : cfg?.rank;
  const listed = Array.isArray(st.lora_targets) ? st.lora_targets.flatMap((m) => MODULES[String(m)] ?? []) : null;
  const targets = listed && listed.length > 0 ? listed : cfg?.targets;
  return rank && targets ? { rank, targets } : null;
}

/** The scenario keys a torchtune row sets (on top of a training default), or why it cannot be mapped. */
export function torchtuneScenario(row: TorchtuneRow): TorchtuneMapped {
  const st = row.settings;
  const commit = commitOf(row.source);
  if (row.seq_in === null) return { ok: false, code: 'seq-unknown', text: 'unpacked dataset: sequence length unknown' };
  if ((typeof st.num_gpus === 'number' ? st.num_gpus : 1) !== 1) return { ok: false, code: 'multi-gpu', text: 'FSDP2 multi-GPU recipe (CPU offload, per-GPU buffers) not described by the scenario' };
  if (typeof st.gpu === 'string' && st.gpu.includes('A6000'))
    return { ok: false, code: 'settings-unknown', text: "A6000 row restates the 4090 row's settings yet measures twice the memory: its real settings are not published" };
  const method: Scenario['method'] = row.mode === 'LoRA' ? 'lora' : row.mode === 'QLoRA' ? 'qlora' : 'full';
  const lora = method === 'full' ? null : loraOf(commit, row);
  if (method !== 'full' && !lora) return { ok: false, code: 'lora-unstated', text: 'LoRA rank/targets not stated and no default config known' };
  const chunked = commit === '30b8519e' || st.chunked_ce === true;
  const scenario: Partial<Scenario> = {
    mode: 'training',
    method,
    weights: method === 'qlora' ? 'nf4' : 'bf16',
    precision: 'bf16',
    optimizer: optimizerOf(typeof st.optimizer === 'string' ? st.optimizer : ''),
    attn: 'sdpa',
    gradCkpt: st.activation_checkpointing === true ? 'full' : 'none',
    compile: st.compile === true ? 'inductor' : 'none',
    optimStep: st.optimizer_in_bwd === true ? 'in-backward' : 'after-backward',
    actOffload: st.activation_offloading === true ? 'cpu' : 'none',
    lossChunks: chunked ? 8 : 1,
    // unchunked: the decoder's fp32 output (TransformerDecoder `self.output(h).float()`), deleted after the loss
    logitsPath: 'torchtune',
    batch: row.batch ?? 1,
    seq: row.seq_in,
    gradAccum: 1,
    ...(lora ? { loraRank: lora.rank, loraTargets: lora.targets, optimImpl: 'fused' as const, adapterDtype: 'base' as const } : {}),
    // torchtune's QLoRA (torchao NF4) calls no PEFT prepare_model_for_kbit_training
    ...(method === 'qlora' ? { bnbCompute: 'bf16' as const, kbitPrep: 'off' as const } : {}),
  };
  return { ok: true, scenario, method };
}
