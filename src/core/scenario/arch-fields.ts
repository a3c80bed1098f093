/**
 * Architecture keys of the schema: a custom model (`model=custom`) or overrides on top of a
 * preset. Names follow config.json meanings (hidden_size, num_key_value_heads, …; docs/reference/formulas.md §1).
 */
import type { ModelArch } from '../types';

type Moe = NonNullable<ModelArch['moe']>;

export type ArchKind = { type: 'int'; min: number; max: number } | { type: 'bool' } | { type: 'enum'; values: readonly string[] } | { type: 'text' };

export interface ArchFieldSpec {
  /** top-level ModelArch property, or a property of ModelArch.moe */
  prop: keyof ModelArch | `moe.${keyof Moe}`;
  name: string;
  kind: ArchKind;
  help: string;
}

const n = (max: number, min = 1): ArchKind => ({ type: 'int', min, max });
const bool: ArchKind = { type: 'bool' };

/** Every architecture key, in the order forms and docs list them. */
export const ARCH_FIELDS: readonly ArchFieldSpec[] = [
  { prop: 'family', name: 'family', kind: { type: 'text' }, help: "Family label, e.g. 'llama' (letters, digits, _ . -)" },
  { prop: 'hidden', name: 'hidden', kind: n(1_048_576), help: 'hidden_size h' },
  { prop: 'layers', name: 'layers', kind: n(100_000), help: 'num_hidden_layers L' },
  { prop: 'heads', name: 'heads', kind: n(65_536), help: 'num_attention_heads a' },
  { prop: 'kvHeads', name: 'kv-heads', kind: n(65_536), help: 'num_key_value_heads g (GQA; = heads for MHA, 1 for MQA)' },
  { prop: 'headDim', name: 'head-dim', kind: n(65_536), help: 'head_dim d (default hidden / heads)' },
  { prop: 'ffn', name: 'ffn', kind: n(16_777_216), help: 'intermediate_size f of the dense MLP' },
  { prop: 'vocab', name: 'vocab', kind: n(16_777_216), help: 'vocab_size V' },
  { prop: 'gatedMlp', name: 'gated', kind: bool, help: 'Gated MLP (SwiGLU/GeGLU: 3 matrices) vs plain fc1/fc2' },
  { prop: 'normsPerLayer', name: 'norms-per-layer', kind: n(8), help: 'Norm modules per layer: 2 (before attention and before the MLP), 1 in parallel blocks (GPT-J, Phi, Falcon-7B), 4 in Gemma-2/3' },
  { prop: 'norm', name: 'norm', kind: { type: 'enum', values: ['rmsnorm', 'layernorm'] }, help: 'Normalisation type' },
  { prop: 'tiedEmbeddings', name: 'tied', kind: bool, help: 'tie_word_embeddings: LM head shares the embedding matrix' },
  { prop: 'qkvBias', name: 'qkv-bias', kind: bool, help: 'Biases on q/k/v projections' },
  { prop: 'oBias', name: 'o-bias', kind: bool, help: 'Bias on the attention output projection' },
  { prop: 'mlpBias', name: 'mlp-bias', kind: bool, help: 'Biases on the MLP projections' },
  { prop: 'remoteCode', name: 'remote-code', kind: bool, help: "config.json auto_map names the model's own AutoModelForCausalLM (trust_remote_code): logits-path=auto takes the remote-code path" },
  { prop: 'alibi', name: 'alibi', kind: bool, help: 'ALiBi positions (Baichuan-13B): a heads × context² mask buffer' },
  { prop: 'normHead', name: 'norm-head', kind: bool, help: "Baichuan2's NormHead: a normalised copy of the LM head at the first call" },
  {
    prop: 'mlpAct',
    name: 'mlp-act',
    kind: { type: 'enum', values: ['fused', 'tanh-gelu', 'fast-gelu', 'quick-gelu', 'relu'] },
    help: "MLP activation in transformers: 'fused' (one kernel: gelu, silu), 'relu' (saves its output: OPT, T5), or composed of Python ops whose intermediates training keeps: 'tanh-gelu' (gelu_new: GPT-2, GPT-J, Phi-2), 'fast-gelu', 'quick-gelu'; set by a pasted config.json",
  },
  {
    prop: 'residDropout',
    name: 'resid-dropout',
    kind: bool,
    help: 'Dropout on the residual branches in training (resid_pdrop / hidden_dropout > 0): a GPT-style layer keeps two 1-byte masks per token; set by a pasted config.json',
  },
  { prop: 'maxContext', name: 'max-context', kind: n(1 << 30), help: 'max_position_embeddings' },
  { prop: 'moe.experts', name: 'experts', kind: n(65_536), help: 'MoE: routed experts E' },
  { prop: 'moe.expertsPerToken', name: 'experts-per-tok', kind: n(65_536), help: 'MoE: experts per token k' },
  { prop: 'moe.expertFfn', name: 'expert-ffn', kind: n(16_777_216), help: 'MoE: intermediate size of one expert (default ffn)' },
  { prop: 'moe.sharedExperts', name: 'shared-experts', kind: n(65_536, 0), help: 'MoE: always-active shared experts' },
  { prop: 'moe.sharedFfn', name: 'shared-ffn', kind: n(16_777_216, 0), help: 'MoE: intermediate size of one shared expert' },
  { prop: 'moe.denseLayers', name: 'dense-layers', kind: n(100_000, 0), help: 'MoE: leading dense layers (first_k_dense_replace)' },
  { prop: 'moe.layerFreq', name: 'moe-freq', kind: n(100_000), help: 'MoE: every n-th layer is MoE' },
];

/** Keys a custom model must give (the rest default from them). */
export const REQUIRED_CUSTOM: readonly string[] = ['hidden', 'layers', 'heads', 'ffn', 'vocab'];

/**
 * MoE fields for a dense model that gets `experts` / `experts-per-tok` (both required then):
 * every layer MoE, experts as wide as the dense MLP, no shared experts (Mixtral's layout).
 */
export function moeDefaults(experts: number, expertsPerToken: number, ffn: number): Moe {
  return { experts, expertsPerToken, expertFfn: ffn, sharedExperts: 0, sharedFfn: 0, denseLayers: 0, layerFreq: 1 };
}
