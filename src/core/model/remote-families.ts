/**
 * Shapes of the 2023–24 chat models that ship their own modeling file (trust_remote_code), where
 * the config's standard-looking fields mean something else than in transformers' own families.
 * Each rule is read from the repository's modeling file on the Hugging Face Hub:
 *
 * - Qwen-1 (`model_type` 'qwen', Qwen/Qwen-7B `modeling_qwen.py`): `QWenMLP` builds w1 and w2 as
 *   `nn.Linear(hidden_size, intermediate_size // 2)` and c_proj from that half width, so the
 *   config's intermediate_size (22016 for Qwen-7B) is twice the gated width. `QWenAttention.c_attn`
 *   is one Linear(h, 3·a·kv_channels, bias=True) whatever the config says; c_proj and the MLP take
 *   `bias=not config.no_bias` (QWenConfig default no_bias=True). The first release (Aug 2023) spelled
 *   the fields GPT-2's way (n_embd, n_layer, n_head, padded_vocab_size) and the width
 *   `ffn_hidden_size`, halved the same way.
 * - ChatGLM2 / ChatGLM3 (`model_type` 'chatglm', THUDM/chatglm2-6b `modeling_chatglm.py`):
 *   `SelfAttention.query_key_value` is Linear(h, a·kv_channels + 2·kv_channels·multi_query_group_num)
 *   when `multi_query_attention`, else all heads; its bias is `add_bias_linear or add_qkv_bias`,
 *   `dense` and the MLP take `add_bias_linear`. `MLP.dense_h_to_4h` is Linear(h, 2·ffn_hidden_size)
 *   followed by `swiglu` (chunk in two, silu(x0)·x1). RMSNorm when `rmsnorm`; the embedding and the
 *   untied `output_layer` have `padded_vocab_size` rows. The first ChatGLM-6B (no `ffn_hidden_size`;
 *   `inner_hidden_size`, `position_encoding_2d`) is the GELU / LayerNorm GLM block with every bias,
 *   which the family's traits describe; its config sets no `tie_word_embeddings`, so PretrainedConfig's
 *   default True ties `lm_head` (its `get_output_embeddings`) to `word_embeddings`: 6,173,286,400,
 *   the "6.2B" of its model card.
 * - Baichuan (baichuan-inc `modeling_baichuan.py`): `W_pack` is one Linear(h, 3h, bias=False). The
 *   13B files use ALiBi (`BaichuanModel.get_alibi_mask`) and their config class has no
 *   `max_position_embeddings`, which the 7B files' rotary code reads: its absence marks ALiBi, and
 *   `model_max_length` sizes the mask buffer. Baichuan2's files replace lm_head with `NormHead`;
 *   a Baichuan2 config is told by its 7B config class's `z_loss_weight` or by Baichuan 2's
 *   vocabulary of 125,696 (Baichuan 1 had 64,000: arXiv 2309.10305 §2.2).
 * - InternLM (v1, internlm/internlm-7b `modeling_internlm.py`): Llama's block where q/k/v/o take
 *   `bias=config.bias` (InternLMConfig default True) and the MLP none.
 */
import type { Attn, ModelArch } from '../types';
import type { FieldReader } from './fields';
import { FAMILIES } from './families';

/** Baichuan 2's tokenizer (arXiv 2309.10305 §2.2). */
const BAICHUAN2_VOCAB = 125_696;

/** The ChatGLM2/3 block (SwiGLU, grouped K/V), told from the first ChatGLM by its ffn_hidden_size. */
function isChatGlm2(r: FieldReader): boolean {
  return r.pick(['ffn_hidden_size', 'multi_query_attention', 'rmsnorm', 'add_bias_linear']) !== undefined;
}

/** Correct `arch` in place for the remote-code families above; other families are left as parsed. */
export function remoteCodeShape(r: FieldReader, arch: ModelArch): void {
  if (arch.family === 'qwen') {
    const bias = !(r.bool('no_bias') ?? true);
    arch.ffn = Math.max(1, Math.floor((r.int(['intermediate_size', 'ffn_hidden_size'], 22016) ?? 22016) / 2));
    Object.assign(arch, { kvHeads: arch.heads, qkvBias: true, oBias: bias, mlpBias: bias });
  } else if (arch.family === 'chatglm' && isChatGlm2(r)) {
    const linearBias = r.bool('add_bias_linear') ?? false;
    const groups = r.bool('multi_query_attention') === true ? (r.int(['multi_query_group_num'], 1) ?? 1) : arch.heads;
    arch.vocab = r.int(['padded_vocab_size'], arch.vocab) ?? arch.vocab;
    Object.assign(arch, {
      gatedMlp: true,
      norm: r.bool('rmsnorm') === false ? 'layernorm' : 'rmsnorm',
      kvHeads: Math.min(groups, arch.heads),
      qkvBias: linearBias || (r.bool('add_qkv_bias') ?? false),
      oBias: linearBias,
      mlpBias: linearBias,
    });
  } else if (arch.family === 'chatglm') {
    arch.tiedEmbeddings = r.bool('tie_word_embeddings') ?? true;
  } else if (arch.family === 'baichuan') {
    if (r.cfg.max_position_embeddings === undefined) {
      arch.alibi = true;
      // read here, not as a context spelling: tokenizer-style configs put 1e30 under this name
      const max = r.optInt(['model_max_length']);
      if (max !== undefined) arch.maxContext = max;
    }
    if (r.cfg.z_loss_weight !== undefined || arch.vocab === BAICHUAN2_VOCAB) arch.normHead = true;
  } else if (arch.family === 'internlm') {
    const bias = r.bool('bias') ?? true;
    Object.assign(arch, { qkvBias: bias, oBias: bias, mlpBias: false });
  }
}

/**
 * Baichuan's configuration_baichuan.py stores `self.gradient_checkpointing = (gradient_checkpointing,)`,
 * a one-element tuple and so always true, and `BaichuanModel.forward` checkpoints every decoder
 * layer (`torch.utils.checkpoint.checkpoint`) when `self.gradient_checkpointing and self.training`:
 * under transformers the file trains with every layer checkpointed, whatever the trainer asks. Our
 * H200 Trainer run of Baichuan2-13B LoRA at 1,024 tokens (src/validation/fixtures/measured-remote.json,
 * l002) peaked 7.6 GB below the count without checkpointing. Read from Baichuan2-13B-Chat's files.
 */
export function ownFileCheckpoints(arch: Pick<ModelArch, 'family'>): boolean {
  return arch.family === 'baichuan';
}

/**
 * The attention kind a model's modeling file runs, in training and in generate, where it offers
 * fewer kinds than the attn key names (families.ts `attnClasses`): any kind it lacks runs eager.
 * - InternLM's `INTERNLM_ATTENTION_CLASSES` (internlm-7b `modeling_internlm.py`) and
 *   `INTERNLM2_ATTENTION_CLASSES` (internlm2 `modeling_internlm2.py`, the tuple-cache revisions)
 *   hold "eager" and "flash_attention_2", picked by `config.attn_implementation` (default "eager").
 * - transformers' GPT-J (`GPTJ_ATTENTION_CLASSES`: eager, flash_attention_2), Bloom and T5 / mT5
 *   (no `_supports_sdpa` or `_supports_flash_attn`: `BloomAttention`, `T5Attention` only) have no
 *   SDPA path, so transformers loads them eager (modeling_utils.py `get_correct_attn_implementation`).
 * Other families keep the attention asked for here (ChatGLM2/3's SDPA, Qwen-1's per-layer masks and
 * Baichuan's xformers-or-eager switch are modelled where they differ).
 */
export function ownFileAttn(arch: Pick<ModelArch, 'family'>, attn: Attn): Attn {
  const offered = FAMILIES[arch.family]?.attnClasses;
  return offered && !offered.includes(attn) ? 'eager' : attn;
}
