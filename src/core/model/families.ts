/**
 * Per-family defaults that a config.json leaves implicit: the HF `transformers` modeling
 * file of each family fixes them in code rather than in the config.
 * Source: huggingface/transformers `src/transformers/models/<family>/{configuration,modeling}_<family>.py`
 * (class defaults of `tie_word_embeddings`, Linear `bias=` arguments, norm classes, MLP shape);
 * docs/reference/formulas.md §1.1 and §1.4.
 */
import type { Attn, Message } from '../types';
import type { Spellings } from './fields';

export interface FamilyTraits {
  /** SwiGLU/GeGLU gate+up+down (true) vs plain fc1/fc2 (false); undefined = decide by hidden_act. */
  gated?: boolean;
  norm?: 'rmsnorm' | 'layernorm';
  /** `tie_word_embeddings` default of the family's config class. */
  tied?: boolean;
  /** bias on q/k/v, on o, on the MLP Linears. */
  qkvBias?: boolean;
  oBias?: boolean;
  mlpBias?: boolean;
  normsPerLayer?: number;
  qkNorm?: boolean;
  /**
   * RMSNorm whose weight multiplies the fp32 normalised tensor before the cast back, not Llama's
   * `weight * x.to(dtype)`: GemmaRMSNorm `output * (1.0 + self.weight.float())` then `.type_as(x)`;
   * ChatGLM2/3's `RMSNorm.forward` `(self.weight * hidden_states).to(input_dtype)`, where
   * `hidden_states` is the fp32 product of the 16-bit input and the fp32 rsqrt.
   */
  normScaledFp32?: boolean;
  /**
   * RMSNorm that multiplies its input as it arrives, not its fp32 copy, by the rsqrt:
   * `variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)` then
   * `hidden_states = hidden_states * torch.rsqrt(variance + eps)` (transformers ≤ 4.30's
   * LlamaRMSNorm, kept by the remote files of ChatGLM2/3 `RMSNorm`, Baichuan `RMSNorm` and InternLM
   * `InternLMRMSNorm`). The rsqrt needs a gradient, so that mul's autograd node saves the 16-bit
   * input as well as `pow` the fp32 copy (activations.ts `normInputBytes`).
   */
  normSavesInput?: boolean;
  /**
   * Eager attention clamps the masked scores, `torch.max(attn_weights, torch.tensor(finfo.min))`
   * (transformers ≤ 4.30's LlamaAttention, kept by InternLM's `InternLMAttention.forward`):
   * `maximum`'s derivative reads both operands (tools/autograd/derivatives.yaml), so the masked
   * scores are saved for backward beside the softmax output and its cast.
   */
  clampsScores?: boolean;
  /**
   * The modeling file writes its own eager attention instead of transformers'
   * `eager_attention_forward` (`softmax(..., dtype=float32).to(dtype)`): inference/transient.ts
   * `eagerScorePieces` counts its [b, a, q, k] tensors. None of these files copies K / V with
   * `repeat_kv`.
   */
  eager?: OwnEager;
  /**
   * Whether the config class's default attention dropout is above 0 (GPT-2's and GPT-BigCode's
   * `attn_pdrop` 0.1, BERT's `attention_probs_dropout_prob` 0.1) or 0 (GPT-J's `attn_pdrop`, Bloom's,
   * OPT's, GPT-NeoX's, Phi's, StarCoder2's and Falcon's `attention_dropout`); unset: taken as above 0.
   * At 0 `nn.functional.dropout` returns its input: no mask and no copy to save (training/activations.ts).
   */
  attnDropout?: boolean;
  /**
   * Whether the config class's default dropout on the residual branches is above 0 (GPT-2's and
   * GPT-BigCode's `resid_pdrop` 0.1, OPT's `dropout` 0.1, BERT's `hidden_dropout_prob` 0.1) or 0
   * (GPT-J's and Phi's `resid_pdrop`, GPT-NeoX's, Bloom's and Falcon's `hidden_dropout`,
   * StarCoder2's `residual_dropout`); unset: taken as above 0. Above 0, a GPT-style layer saves two
   * 1-byte masks per token (training/activations.ts); at 0 `F.dropout` returns its input.
   */
  residDropout?: boolean;
  /**
   * The attention kinds the modeling file offers, where it lacks some (its attention classes, or no
   * `_supports_sdpa`): any other kind runs eager (model/remote-families.ts `ownFileAttn`).
   */
  attnClasses?: readonly Attn[];
  /** Checkpoint stores q/k/v as one fused Linear (and gate/up as one for Phi-3). */
  fusedQkv?: boolean;
  fusedGateUp?: boolean;
  /**
   * Which of a block's Linears the checkpoint lists last, its tensor names sorted (safetensors
   * `keys()` sorts them): 'mlp' where the attention's prefix sorts first ('attn' / 'attention' <
   * 'mlp' / 'feed_forward'); 'attn-output' where the output projection sorts after the fused q/k/v
   * (Baichuan: 'W_pack' < 'o_proj'); unset: the v projection or the fused q/k/v ('mlp' < 'self_attn').
   * inference/quant-linear.ts `quantizeOnLoad`.
   */
  loadsLast?: 'mlp' | 'attn-output';
  /** Bias layout fixed in code; config `attention_bias` is not read (Qwen2). */
  biasFixed?: boolean;
  /**
   * Every attention layer builds its own square mask and hands it to SDPA; the model passes only a
   * [b, 1, 1, s] padding mask (Qwen-1's modeling_qwen.py `QWenAttention.forward`, `SUPPORT_TORCH2`).
   */
  layerMasks?: boolean;
  /** Config keys holding the learned absolute position table length (GPT-2, BERT, OPT). */
  learnedPositions?: Spellings;
}

/** A family's own eager attention, at its softmax (transformers 5.x modeling files). */
export interface OwnEager {
  /**
   * 'fp32': `softmax(scores, dtype=float32)` then a cast back, as `eager_attention_forward`;
   * 'model-dtype': `softmax(..., dtype=hidden_states.dtype)`, in the model dtype (input and output),
   * under autocast too (autocast_mode.cpp `fp32_set_opt_dtype` keeps a dtype given);
   * 'input-dtype': `softmax(scores)` with no dtype, in the model dtype without autocast, in fp32
   * under it (that policy sets float32 when none is given);
   * 'fp32-scores': q and k cast to fp32 before the matmul, so the scores and the softmax are fp32
   * (input and output), and the QKᵀ matmul saves the fp32 copies.
   */
  softmax: 'fp32' | 'model-dtype' | 'input-dtype' | 'fp32-scores';
  /** raw score tensors of the model dtype still bound to a name at the softmax (Falcon's, Bloom's; default 0) */
  bound?: number;
  /**
   * the model's loop keeps the previous block's probabilities in `outputs = block(...)` until the
   * next block returns (the attention returns them whatever `output_attentions` says): one more
   * tensor of the model dtype at the next block's softmax and MLP
   */
  previous?: boolean;
}

/** Tensors of the model dtype a family's own eager path holds at its softmax beside the softmax's own. */
export const ownEagerHeld = (own: OwnEager): number => (own.bound ?? 0) + (own.previous ? 1 : 0);

const GPT_POS = ['n_positions', 'n_ctx'] as const;
const BERT_POS = ['max_position_embeddings'] as const;
const LLAMA_LIKE: FamilyTraits = { gated: true, norm: 'rmsnorm', tied: false };
const GPT_LIKE: FamilyTraits = {
  gated: false,
  norm: 'layernorm',
  qkvBias: true,
  oBias: true,
  mlpBias: true,
};

/** Keyed by config.json `model_type`. */
export const FAMILIES: Record<string, FamilyTraits> = {
  llama: LLAMA_LIKE,
  mistral: LLAMA_LIKE,
  mixtral: LLAMA_LIKE,
  olmo: LLAMA_LIKE,
  // InternLM2 (modeling_internlm2.py InternLM2Attention): one `wqkv` Linear, (a + 2g)·d wide
  // INTERNLM2_ATTENTION_CLASSES: eager and flash_attention_2
  internlm2: { ...LLAMA_LIKE, fusedQkv: true, attnClasses: ['eager', 'flash'], loadsLast: 'mlp' },
  granite: LLAMA_LIKE,
  deepseek_v2: LLAMA_LIKE,
  deepseek_v3: LLAMA_LIKE,
  // Qwen2 attention: q/k/v_proj bias=True, o_proj bias=False (modeling_qwen2.py).
  qwen2: { ...LLAMA_LIKE, qkvBias: true, oBias: false, biasFixed: true },
  qwen2_moe: { ...LLAMA_LIKE, qkvBias: true, oBias: false, biasFixed: true },
  // Qwen2-VL's language model is Qwen2's (modeling_qwen2_vl.py Qwen2VLAttention: q/k/v bias, o without)
  qwen2_vl: { ...LLAMA_LIKE, qkvBias: true, oBias: false, biasFixed: true },
  qwen2_vl_text: { ...LLAMA_LIKE, qkvBias: true, oBias: false, biasFixed: true },
  qwen3: { ...LLAMA_LIKE, qkNorm: true },
  qwen3_moe: { ...LLAMA_LIKE, qkNorm: true },
  phi3: { ...LLAMA_LIKE, fusedQkv: true, fusedGateUp: true },
  gemma: { gated: true, norm: 'rmsnorm', tied: true, normScaledFp32: true },
  gemma2: { gated: true, norm: 'rmsnorm', tied: true, normsPerLayer: 4, normScaledFp32: true },
  gemma3: { gated: true, norm: 'rmsnorm', tied: true, normsPerLayer: 4, qkNorm: true, normScaledFp32: true },
  gemma3_text: { gated: true, norm: 'rmsnorm', tied: true, normsPerLayer: 4, qkNorm: true, normScaledFp32: true },
  // GPT-2's own eager_attention_forward: `softmax(attn_weights, dim=-1)`, no dtype: input and output in the model dtype
  gpt2: { ...GPT_LIKE, tied: true, fusedQkv: true, learnedPositions: GPT_POS, eager: { softmax: 'input-dtype' }, attnDropout: true, residDropout: true, loadsLast: 'mlp' },
  gpt_bigcode: { ...GPT_LIKE, tied: true, fusedQkv: true, learnedPositions: GPT_POS, attnDropout: true, residDropout: true, loadsLast: 'mlp' },
  gpt_neox: { ...GPT_LIKE, tied: false, fusedQkv: true, attnDropout: false, residDropout: false, loadsLast: 'mlp' },
  // GPTJAttention._attn: `query.to(torch.float32)`, `key.to(torch.float32)`, fp32 scores and softmax; GPTJModel.forward's
  // `outputs = block(...)` holds the previous block's probabilities
  // (GPTJ_ATTENTION_CLASSES: eager and flash_attention_2, no SDPA)
  gptj: {
    gated: false,
    norm: 'layernorm',
    tied: false,
    mlpBias: true,
    normsPerLayer: 1,
    eager: { softmax: 'fp32-scores', previous: true },
    attnClasses: ['eager', 'flash'],
    attnDropout: false,
    residDropout: false,
    loadsLast: 'mlp',
  },
  // BloomAttention.forward: `attention_scores = alibi.baddbmm(...)` stays bound while `attn_weights + attention_mask`
  // goes through softmax(dtype=float32).to(dtype); BloomModel.forward's `outputs` holds the previous block's probabilities
  // (BloomPreTrainedModel declares neither SDPA nor flash attention: BloomAttention is the only path)
  bloom: { ...GPT_LIKE, tied: true, fusedQkv: true, eager: { softmax: 'fp32', bound: 1, previous: true }, attnClasses: ['eager'], attnDropout: false, residDropout: false },
  opt: { ...GPT_LIKE, tied: true, learnedPositions: BERT_POS, attnDropout: false, residDropout: true },
  phi: { ...GPT_LIKE, tied: false, normsPerLayer: 1, attnDropout: false, residDropout: false },
  starcoder2: { ...GPT_LIKE, tied: true, attnDropout: false, residDropout: false },
  bert: { ...GPT_LIKE, tied: true, learnedPositions: BERT_POS, attnDropout: true, residDropout: true },
  roberta: { ...GPT_LIKE, tied: true, learnedPositions: BERT_POS, attnDropout: true },
  // XLM-RoBERTa (bge-m3, multilingual-e5): RoBERTa's layers; max_position_embeddings already holds
  // the padding offset of 2 (XLMRobertaEmbeddings padding_idx + 1)
  'xlm-roberta': { ...GPT_LIKE, tied: true, learnedPositions: BERT_POS, attnDropout: true },
  // Falcon: `bias` field (default False) decides all biases; fused query_key_value. Its eager path
  // (modeling_falcon.py `FalconAttention.forward`, rotary branch): `attention_scores = query_layer @
  // key_layer.transpose(-1, -2)`, `/=` in place, `F.softmax(attention_scores + attention_mask,
  // dtype=hidden_states.dtype)`: the scores, the masked sum and the probabilities, all in the model
  // dtype; the attention returns the probabilities and `FalconModel.forward` keeps the block's
  // returned tuple in `outputs` until the next block returns: a fourth tensor at the next softmax.
  // (The ALiBi branch, falcon-rw, upcasts its scores and folds ALiBi into a [b, a, s, s] mask: not read.)
  falcon: { gated: false, norm: 'layernorm', tied: true, fusedQkv: true, eager: { softmax: 'model-dtype', bound: 1, previous: true }, attnDropout: false, residDropout: false },
  // remote-code families (remote-families.ts): ChatGLM's query_key_value and dense_h_to_4h, Qwen-1's
  // c_attn and Baichuan's W_pack are fused Linears; InternLM v1 is Llama's block with attention biases
  // (ChatGLM-6B's LayerNorm layers are GPT-style: the RMSNorm traits apply to ChatGLM2/3's)
  chatglm: { ...GPT_LIKE, tied: false, fusedQkv: true, fusedGateUp: true, normScaledFp32: true, normSavesInput: true },
  qwen: { ...LLAMA_LIKE, fusedQkv: true, layerMasks: true, loadsLast: 'mlp' },
  baichuan: { ...LLAMA_LIKE, fusedQkv: true, normSavesInput: true, loadsLast: 'attn-output' },
  internlm: { ...LLAMA_LIKE, normSavesInput: true, clampsScores: true, attnClasses: ['eager', 'flash'] },
  // hybrids (hybrid-config.ts): Llama-style attention and gated MLPs; Nemotron-H has one norm per
  // block and a plain relu² MLP (NemotronHBlock, NemotronHMLP up_proj / down_proj)
  jamba: LLAMA_LIKE,
  bamba: LLAMA_LIKE,
  granitemoehybrid: LLAMA_LIKE,
  falcon_h1: LLAMA_LIKE,
  nemotron_h: { gated: false, norm: 'rmsnorm', tied: false, normsPerLayer: 1 },
  qwen3_next: { ...LLAMA_LIKE, qkNorm: true },
  // Zamba2MLP: one gate_up_proj (act(gate)·up) whatever hidden_act; one RMSNorm per Mamba layer
  // (the shared blocks' norms are counted with them); tie_word_embeddings left at its True default
  zamba2: { gated: true, norm: 'rmsnorm', tied: true, fusedGateUp: true, normsPerLayer: 1 },
  // fla RWKV7Block: attn_norm and ffn_norm LayerNorms with bias; plain key/value FFN (rwkv7-config.ts)
  rwkv7: { gated: false, norm: 'layernorm', tied: false, normsPerLayer: 2 },
  // T5Attention (modeling_t5.py) is the only path: no `_supports_sdpa` or `_supports_flash_attn`;
  // `softmax(scores.float(), dim=-1).type_as(scores)`, the common eager rule's tensors
  t5: { norm: 'rmsnorm', tied: true, attnClasses: ['eager'] },
  mt5: { norm: 'rmsnorm', tied: false, attnClasses: ['eager'] },
};

/** Families without an LM head (encoder models counted as the base model: no KV cache, no generation). */
export const ENCODER_ONLY = new Set(['bert', 'roberta', 'xlm-roberta']);

/** Families whose learned position table is offset by 2 rows (OPT's `OPTLearnedPositionalEmbedding`). */
export const POSITION_OFFSET: Record<string, number> = { opt: 2 };

/** HF `architectures[0]` class name prefix -> model_type, for configs that lack model_type. */
export const ARCH_PREFIX: [string, string][] = [
  ['Llama', 'llama'],
  ['Mistral', 'mistral'],
  ['Mixtral', 'mixtral'],
  ['Qwen3Moe', 'qwen3_moe'],
  ['Qwen3', 'qwen3'],
  ['Qwen2Moe', 'qwen2_moe'],
  ['Qwen2', 'qwen2'],
  ['Gemma3', 'gemma3_text'],
  ['Gemma2', 'gemma2'],
  ['Gemma', 'gemma'],
  ['Phi3', 'phi3'],
  ['Phi', 'phi'],
  ['GPT2', 'gpt2'],
  ['GPTNeoX', 'gpt_neox'],
  ['Falcon', 'falcon'],
  ['Bert', 'bert'],
  ['XLMRoberta', 'xlm-roberta'],
  ['Roberta', 'roberta'],
  ['T5', 't5'],
  ['DeepseekV3', 'deepseek_v3'],
  ['DeepseekV2', 'deepseek_v2'],
  ['OPT', 'opt'],
  ['QWen', 'qwen'],
];

/**
 * A note for a family transformers cannot load by itself: RWKV-7 has no transformers class; its
 * checkpoints load with flash-linear-attention (`import fla` registers RWKV7ForCausalLM with the
 * Auto classes) or the repository's own code under trust_remote_code.
 */
export function loaderNote(family: string): Message | null {
  if (family !== 'rwkv7') return null;
  return {
    code: 'model.rwkv7-loader',
    text: 'transformers has no RWKV-7 class: the model loads with flash-linear-attention (pip install flash-linear-attention, then import fla) or with trust_remote_code=True where the repository ships its modeling code. The estimate follows fla’s layers and cache (fla/layers/rwkv7.py).',
  };
}

/**
 * A note for a config whose `model_type` has no entry above: it is counted from its standard
 * config fields as a Llama-style decoder (attention + MLP in every layer), which a model with
 * other layers (recurrent mixers, shared blocks) would not be. Null for known families and for
 * architectures typed in by hand ('custom').
 */
export function unknownFamilyNote(family: string): Message | null {
  if (family === 'custom' || Object.hasOwn(FAMILIES, family)) return null;
  return {
    code: 'model.unknown-family',
    params: { family },
    text: `model_type '${family}' is not a family the calculator knows: its parameters and KV cache are counted from the config's standard fields as a Llama-style decoder (attention + MLP in every layer). Check them against the model card.`,
  };
}
