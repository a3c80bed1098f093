/**
 * parseHfConfig: normalise any Hugging Face config.json family into a ModelArch.
 * Field spellings and family defaults: docs/reference/formulas.md §1.1–§1.4; HF transformers
 * `configuration_*.py` / `modeling_*.py` of each family (see families.ts).
 */
import type { FieldError, MlpAct, ModelArch, Result } from '../types';
import { ARCH_PREFIX, ENCODER_ONLY, FAMILIES, POSITION_OFFSET, type FamilyTraits } from './families';
import { FieldReader, MAX_LAYERS, isObject, type Json } from './fields';
import { parseMoe, parseMla, parseSlidingWindow } from './config-extras';
import { HYBRID_FAMILIES, UNMODELLED_FAMILIES, parseHybrid } from './hybrid-config';
import { parseRwkv7 } from './rwkv7-config';
import { remoteCodeShape } from './remote-families';
import { parseVisionTower } from './vision';

const HIDDEN = ['hidden_size', 'n_embd', 'd_model'] as const;
const LAYERS = ['num_hidden_layers', 'n_layer', 'num_layers'] as const;
const HEADS = ['num_attention_heads', 'n_head', 'num_heads'] as const;
const KV_HEADS = ['num_key_value_heads', 'num_kv_heads', 'n_head_kv', 'multi_query_group_num'] as const;
// attention_head_dim: Nemotron-H (NemotronHAttention.head_dim)
const HEAD_DIM = ['head_dim', 'd_kv', 'kv_channels', 'attention_head_dim'] as const;
const FFN = ['intermediate_size', 'n_inner', 'ffn_dim', 'd_ff', 'ffn_hidden_size', 'inner_hidden_size'] as const;
const VOCAB = ['vocab_size', 'padded_vocab_size', 'n_vocab'] as const;
const CONTEXT = ['max_position_embeddings', 'n_positions', 'max_sequence_length', 'seq_length', 'n_ctx'] as const;
const ACT = ['hidden_act', 'activation_function', 'hidden_activation'] as const;

function fail(key: string, code: string, message: string): Result<ModelArch> {
  return { ok: false, errors: [{ key, code, message }] };
}

/**
 * LlamaConfig's class defaults (transformers configuration_llama.py), which a multimodal config's
 * `text_config` leaves out when it keeps them: llava-hf/llava-1.5-7b-hf names only vocab_size,
 * max_position_embeddings and rms_norm_eps, and transformers fills the rest from these.
 */
const LLAMA_DEFAULTS: Json = { hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000, max_position_embeddings: 2048 };

/** Multimodal configs nest the language model under `text_config` (docs/reference/formulas.md §1.4). */
function flatten(raw: Json): Json {
  const text = raw.text_config ?? raw.llm_config;
  if (!isObject(text)) return raw;
  return { ...(text.model_type === 'llama' ? LLAMA_DEFAULTS : {}), ...raw, ...text };
}

/** Family label: config `model_type` (first word, lower case), else `architectures[0]`. */
export function familyOf(cfg: Json): string {
  // hyphens are part of a name ('xlm-roberta', configuration_xlm_roberta.py)
  const mt = typeof cfg.model_type === 'string' ? cfg.model_type.toLowerCase().match(/^[a-z0-9_-]+/) : null;
  if (mt) return mt[0].startsWith('refinedweb') ? 'falcon' : mt[0];
  const arch: unknown = Array.isArray(cfg.architectures) ? cfg.architectures[0] : undefined;
  if (typeof arch === 'string') {
    const hit = ARCH_PREFIX.find(([prefix]) => arch.startsWith(prefix));
    if (hit) return hit[1];
  }
  return 'custom';
}

/** Gated (SwiGLU/GeGLU) MLP: family rule, T5 `feed_forward_proj`, else by activation name. */
function isGated(r: FieldReader, t: FamilyTraits): boolean {
  const ffp = r.str('feed_forward_proj');
  if (ffp !== undefined) return ffp.startsWith('gated');
  if (t.gated !== undefined) return t.gated;
  const key = r.pick(ACT);
  const act = key ? (r.str(key) ?? '') : '';
  // Llama-style configs say silu; GPT-style plain MLPs say gelu/relu. Unknown: modern default (gated).
  return !/^(?:gelu|relu|quick_gelu|tanh)/.test(act);
}

/**
 * transformers activation names (activations.py ACT2CLS) whose saves differ from a fused GELU /
 * SiLU's: the ones composed from Python tensor ops, and ReLU (saves its output).
 */
const SAVING_ACTS: Readonly<Record<string, MlpAct>> = {
  gelu_new: 'tanh-gelu',
  gelu_python_tanh: 'tanh-gelu',
  gelu_fast: 'fast-gelu',
  quick_gelu: 'quick-gelu',
  relu: 'relu',
};

/**
 * The MLP activation where its saves differ from a fused one's (types.ts MlpAct). T5 reads
 * `dense_act_fn`, which T5Config derives from `feed_forward_proj` (default "relu", MT5Config's
 * "gated-gelu"; "gated-gelu" gives `gelu_new`: models/t5/configuration_t5.py `T5Config.__init__`).
 */
const T5_DEFAULT_PROJ: Readonly<Record<string, string>> = { t5: 'relu', mt5: 'gated-gelu' };

function mlpActOf(r: FieldReader, family: string): MlpAct | undefined {
  const key = r.pick(['dense_act_fn', ...ACT]);
  const proj = r.str('feed_forward_proj') ?? T5_DEFAULT_PROJ[family];
  const name = key ? r.str(key) : proj === 'gated-gelu' ? 'gelu_new' : proj?.split('-').at(-1);
  return name !== undefined && Object.hasOwn(SAVING_ACTS, name) ? SAVING_ACTS[name] : undefined;
}

/** config.json names of the residual-branch dropout probability (OPT's is plain `dropout`). */
const RESID_DROPOUT = ['resid_pdrop', 'hidden_dropout', 'residual_dropout', 'hidden_dropout_prob'] as const;

/** Whether config.json turns the residual dropout on (> 0) or off; undefined when it does not say. */
function residDropoutOf(r: FieldReader): boolean | undefined {
  const key = r.pick(r.cfg.model_type === 'opt' ? [...RESID_DROPOUT, 'dropout'] : RESID_DROPOUT);
  const p = key === undefined ? undefined : r.cfg[key];
  return typeof p === 'number' && Number.isFinite(p) ? p > 0 : undefined;
}

function normKind(r: FieldReader, t: FamilyTraits): 'rmsnorm' | 'layernorm' {
  if (t.norm) return t.norm;
  if (r.cfg.rms_norm_eps !== undefined) return 'rmsnorm';
  const ln = ['layer_norm_eps', 'layer_norm_epsilon', 'layernorm_epsilon'];
  return r.pick(ln) !== undefined ? 'layernorm' : 'rmsnorm';
}

function kvHeadsOf(r: FieldReader, family: string, heads: number): number {
  if (family === 'falcon' && r.cfg.new_decoder_architecture !== true) {
    return r.cfg.multi_query === false ? heads : 1;
  }
  if (r.cfg.multi_query === true) return 1;
  const g = r.int(KV_HEADS, heads) ?? heads;
  if (g > heads) {
    r.fail(r.pick(KV_HEADS) ?? KV_HEADS[0], 'kv-exceeds-heads', `must not exceed the number of attention heads (${heads}), got ${g}`, { heads, kvHeads: g });
    return heads;
  }
  return g;
}

function normsPerLayer(r: FieldReader, family: string, t: FamilyTraits): number {
  if (family === 'falcon') {
    return r.cfg.new_decoder_architecture === true || r.cfg.parallel_attn === false ? 2 : 1;
  }
  return t.normsPerLayer ?? 2;
}

interface Biases {
  qkvBias: boolean;
  oBias: boolean;
  mlpBias: boolean;
}

/** Bias flags: explicit config booleans win unless the family fixes them in code (Qwen2). */
function biases(r: FieldReader, t: FamilyTraits): Biases {
  const fixed = { qkvBias: t.qkvBias ?? false, oBias: t.oBias ?? false, mlpBias: t.mlpBias ?? false };
  if (t.biasFixed) return fixed;
  const all = r.bool('bias') ?? r.bool('use_bias');
  const attn = r.bool('attention_bias') ?? all;
  return {
    qkvBias: r.bool('add_qkv_bias') ?? attn ?? fixed.qkvBias,
    oBias: attn ?? fixed.oBias,
    mlpBias: r.bool('mlp_bias') ?? all ?? fixed.mlpBias,
  };
}

/** Parse a config.json object (or its JSON text) into a ModelArch, or FieldErrors keyed by config field. */
export function parseHfConfig(json: unknown): Result<ModelArch> {
  let raw = json;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      return fail('config', 'invalid-json', 'config: not valid JSON');
    }
  }
  if (!isObject(raw)) return fail('config', 'not-object', 'config: not a JSON object');
  const r = new FieldReader(flatten(raw));
  const family = familyOf(r.cfg);
  if (UNMODELLED_FAMILIES.has(family)) {
    return {
      ok: false,
      errors: [
        {
          key: 'model_type',
          code: 'unmodelled-family',
          params: { family },
          message: `model_type: '${family}' is a recurrent / non-transformer family whose layers this calculator does not model yet`,
        },
      ],
    };
  }
  const t = FAMILIES[family] ?? {};

  const hidden = r.int(HIDDEN);
  const layers = r.int(LAYERS, undefined, 1, MAX_LAYERS);
  if (family === 'rwkv7') return hidden === undefined || layers === undefined ? { ok: false, errors: r.errors } : rwkv7(r, hidden, layers);
  const heads = r.int(HEADS);
  const vocab = r.int(VOCAB);
  if (hidden === undefined || layers === undefined || heads === undefined || vocab === undefined) {
    return { ok: false, errors: r.errors };
  }
  let headDim = r.int(HEAD_DIM, 0) || 0;
  if (headDim === 0 && r.pick(HEAD_DIM) === undefined) {
    if (hidden % heads === 0) headDim = hidden / heads;
    else r.fail('head_dim', 'missing', `missing, and hidden size ${hidden} is not divisible by ${heads} heads`);
  }
  const kvHeads = kvHeadsOf(r, family, heads);
  // GPT-2 `n_inner: null` and Falcon mean 4·h (HF GPT2MLP / FalconMLP).
  const ffn = r.int(FFN, 4 * hidden) ?? 4 * hidden;
  const tiedFlag = r.bool('tie_word_embeddings');
  const arch: ModelArch = {
    family,
    hidden,
    layers,
    heads,
    kvHeads,
    headDim,
    ffn,
    vocab,
    gatedMlp: isGated(r, t),
    norm: normKind(r, t),
    normsPerLayer: normsPerLayer(r, family, t),
    tiedEmbeddings: ENCODER_ONLY.has(family) || (tiedFlag ?? t.tied ?? true),
    ...biases(r, t),
  };
  remoteCodeShape(r, arch);
  const ctx = r.optInt(CONTEXT);
  if (ctx !== undefined) arch.maxContext = ctx;
  if (t.learnedPositions) {
    const n = r.int(t.learnedPositions, undefined);
    if (n !== undefined) arch.positionEmbeddings = n + (POSITION_OFFSET[family] ?? 0);
  }
  if (ENCODER_ONLY.has(family)) {
    const typeVocab = r.int(['type_vocab_size'], 2, 0);
    if (typeVocab !== undefined) arch.typeVocab = typeVocab;
    arch.pooler = true;
  }
  if (t.qkNorm || r.bool('use_qk_norm')) arch.qkNorm = true;
  if (family === 't5' || family === 'mt5') {
    arch.encoderDecoder = { decoderLayers: r.int(['num_decoder_layers'], layers, 0, MAX_LAYERS) ?? layers };
    arch.relPosBuckets = r.int(['relative_attention_num_buckets'], 32) ?? 32;
  }
  const moe = parseMoe(r, family, arch);
  if (moe) arch.moe = moe;
  if (HYBRID_FAMILIES.has(family)) hybridParts(r, family, arch);
  const mla = parseMla(r);
  if (mla) {
    arch.mla = mla;
    arch.headDim = mla.qkNopeHeadDim + mla.qkRopeHeadDim;
  }
  const sw = parseSlidingWindow(r, family, layers);
  if (sw) arch.slidingWindow = sw;
  const vision = parseVisionTower(raw, hidden, r.errors);
  if (vision !== undefined) {
    arch.visionParams = vision.params;
    arch.vision = vision.tower;
  }
  if (hasRemoteCausalLm(raw)) arch.remoteCode = true;
  if (softcap(r.cfg.final_logit_softcapping)) arch.logitSoftcap = true;
  if (softcap(r.cfg.attn_logit_softcapping)) arch.attnSoftcap = true;
  const act = mlpActOf(r, family);
  if (act) arch.mlpAct = act;
  const resid = residDropoutOf(r) ?? t.residDropout;
  if (resid !== undefined) arch.residDropout = resid;
  return r.errors.length > 0 ? { ok: false, errors: dedupe(r.errors) } : { ok: true, value: arch };
}

/**
 * Hybrid families: the layer pattern and mixer (hybrid-config.ts), plus the FFN fields their
 * modeling files read under other names. granitemoehybrid: every layer has a shared gated MLP of
 * `shared_intermediate_size` (GraniteMoeHybridDecoderLayer.shared_mlp), next to the experts when
 * `num_local_experts` > 0. nemotron_h: shared experts of `moe_shared_expert_intermediate_size`.
 * qwen3_next: Qwen2-MoE-style sigmoid gate on the shared expert (Qwen3NextSparseMoeBlock).
 */
function hybridParts(r: FieldReader, family: string, arch: ModelArch): void {
  if (family === 'granitemoehybrid') {
    const shared = r.int(['shared_intermediate_size'], 1024) ?? 1024;
    if (arch.moe) Object.assign(arch.moe, { sharedExperts: 1, sharedFfn: shared });
    else arch.ffn = shared;
  }
  if (family === 'zamba2') {
    // Zamba2Config.attention_head_dim = 2·h // heads (the attention reads concat(hidden, embeddings));
    // its kv_channels (h / heads) is not the attention's head size. add_bias_linear: MLP biases.
    arch.headDim = Math.floor((2 * arch.hidden) / arch.heads);
    arch.mlpBias = r.bool('add_bias_linear') ?? false;
  }
  if (family === 'nemotron_h' && arch.moe) {
    arch.moe.sharedFfn = r.int(['moe_shared_expert_intermediate_size'], arch.moe.expertFfn) ?? arch.moe.expertFfn;
  }
  const hybrid = parseHybrid(r, family, arch.hidden, arch.layers, arch.moe !== undefined);
  if (!hybrid) return;
  arch.hybrid = hybrid;
  arch.layers = hybrid.blocks.reduce((n, b) => n + b.count, 0);
}

/** RWKV-7 (rwkv7-config.ts): no attention heads in the config; heads = hidden / head_dim, no KV cache. */
function rwkv7(r: FieldReader, hidden: number, layers: number): Result<ModelArch> {
  const vocab = r.int(VOCAB);
  const shape = parseRwkv7(r, hidden, layers);
  if (vocab === undefined || !shape || r.errors.length > 0) return { ok: false, errors: dedupe(r.errors) };
  const t = FAMILIES.rwkv7 ?? {};
  const arch: ModelArch = {
    family: 'rwkv7',
    hidden,
    layers,
    heads: shape.heads,
    kvHeads: shape.heads,
    headDim: shape.headDim,
    ffn: shape.ffn,
    vocab,
    gatedMlp: t.gated ?? false,
    norm: t.norm ?? 'layernorm',
    normsPerLayer: t.normsPerLayer ?? 2,
    tiedEmbeddings: r.bool('tie_word_embeddings') ?? t.tied ?? false,
    qkvBias: false,
    oBias: false,
    mlpBias: false,
    hybrid: shape.hybrid,
  };
  const ctx = r.optInt(CONTEXT);
  if (ctx !== undefined) arch.maxContext = ctx;
  return r.errors.length > 0 ? { ok: false, errors: dedupe(r.errors) } : { ok: true, value: arch };
}

/**
 * The config names its own causal-LM class: transformers' auto_factory (`_BaseAutoModelClass.
 * from_pretrained`: `has_remote_code = hasattr(config, "auto_map") and cls.__name__ in
 * config.auto_map`) loads that file under trust_remote_code (Qwen-1, Baichuan, ChatGLM, InternLM).
 */
function hasRemoteCausalLm(raw: Json): boolean {
  const map = raw.auto_map;
  return isObject(map) && typeof map.AutoModelForCausalLM === 'string';
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.message) && (seen.add(e.message), true));
}

/** A softcapping value is set (Gemma-2: a positive number; null or absent: off). */
function softcap(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v) && v > 0;
}
