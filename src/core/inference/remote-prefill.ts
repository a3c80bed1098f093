/**
 * The prompt pass of three remote-code files (trust_remote_code) as the tensors their code allocates
 * and frees, in order, as hf-prefill.ts lays out transformers' own models: inference has no
 * autograd, so a temporary goes when its last Python reference does, and in-place ops allocate
 * nothing. Only tensors that scale with the prompt are listed. The entries of the file's tuple
 * cache are left as 'kc' / 'vc'; with a 16-bit cache a view keeps its whole base, so the fused
 * projection's output is 'vc' (Baichuan's, whose K and V are both views, 'kc') from the moment it is
 * made (inference/remote-runtime.ts `OwnCache`). Read from the Hub's modeling files (late-2023
 * revisions):
 *
 * ChatGLM2 / ChatGLM3, `modeling_chatglm.py`:
 * - `Embedding.forward`: `word_embeddings(ids).transpose(0, 1).contiguous()`, a copy only when b > 1
 *   (a [s, 1, h] transpose is already contiguous); `ChatGLMModel.forward` gathers the rotary cache at
 *   the position ids, [b, s, d/4, 2], and transposes it the same way; both held to the end.
 * - `RMSNorm.forward`: `x.to(float32).pow(2).mean(...)` (both temporaries gone before the product),
 *   `x * rsqrt(·)` in fp32, `weight * ·` in fp32, `.to(input_dtype)`.
 * - `SelfAttention.forward`: `query_key_value` ([s, b, (a + 2g)·d]) split into views;
 *   `apply_rotary_pos_emb` (TorchScript) on q and k: the rotated halves' two products, their
 *   `stack`, and `cat((x_out2, x_pass))` (the elementwise products taken as fused into one kernel
 *   each, as the script's fuser does after its profiling run); the cache keeps the rotated k and
 *   v, a view of the projection; `unsqueeze(-2).expand(...).contiguous()` copies K and V to all a
 *   heads; `scaled_dot_product_attention(is_causal=True)` (flash: its output takes q's layout, so
 *   the `permute` and `reshape` after it are views, and a b·a·s fp32 log-sum-exp is dropped);
 *   `dense`. Returning frees the rotated q, the copies and the attention output.
 * - `GLMBlock.forward`: `attention_output` and the first residual sum stay bound to locals until the
 *   block returns; the first norm's output is freed when the second is bound to the same name;
 *   `MLP.forward`: `dense_h_to_4h` (2f wide), `swiglu` (`silu(x[0]) * x[1]`, the 2f output held
 *   through it), `dense_4h_to_h`.
 * - `ChatGLMForConditionalGeneration.forward` with `return_last_logit`: the last row's logits, b·V
 *   in the model dtype (their `transpose(0, 1).contiguous()` of [1, b, V] is a view).
 *
 * Baichuan-13B / Baichuan2-13B (ALiBi), `modeling_baichuan.py`:
 * - `BaichuanModel.forward` with the 2-D attention mask `generate` passes: `m[:, :, None] *
 *   m[:, None, :]`, `torch.gt`, `torch.tril`, the difference and `torch.eq`, their product (b·s² bools
 *   and 16-bit products, each freed when the next is made), `.to(dtype)` of its expansion
 *   (`expanded_mask`), `1.0 − ·`, `.to(bool)` and `masked_fill` (`inverted_mask`), and `inverted_mask
 *   + alibi_mask`: a [b, a, s, s] mask; the three stay bound to locals through every layer.
 * - `RMSNorm.forward`: fp32 square and mean, `x * rsqrt(·)` in fp32, `.to(weight.dtype)`, `weight * ·`.
 * - `BaichuanAttention.forward`: `W_pack` ([b, s, 3h]) unflattened into q, k and v views (the cache
 *   keeps k and v, so the whole output); eager always: `matmul(q, kᵀ)` (with b > 1 the views do not
 *   fold into bmm's batch, so `matmul` copies q and k first, and v for the second product),
 *   `/ √d`, `+ mask`, `torch.max(·, finfo.min)`, softmax, each in the model dtype and made while the
 *   last still exists; `matmul(·, v)`, `transpose(1, 2).reshape(...)` (a copy), `o_proj`; the
 *   probabilities stay bound to `attn_weights` until after `o_proj`.
 * - `BaichuanLayer.forward`: residual sums and the llama-style MLP; `NormHead.forward`'s first call
 *   (Baichuan2) sets `weight.data = normalize(weight)`: old and new weight together for a moment;
 *   then every position's logits in the model dtype.
 *
 * Qwen-1 (without the flash-attn package), `modeling_qwen.py`:
 * - `QWenModel.forward`: `wte(ids)` kept to the end (the embedding dropout is the identity in eval).
 * - `RMSNorm.forward` (no fused `rms_norm`): `_norm(x.float())` — the fp32 copy, its square (gone
 *   after the mean), `x * rsqrt(·)`; the copy goes when `_norm` returns; `.type_as(x)`, `· weight`.
 * - `QWenAttention.forward`: `c_attn` ([b, s, 3h]) split into views; `apply_rotary_pos_emb` (no
 *   fused kernel) on q and k: `t.float()`, `t_rot * cos`, `_rotate_half` (`-x2` and the cat), `· sin`,
 *   the sum, `cat((t_rot, t_pass))` and `.type_as(t)`, all in fp32 but the last; the cache keeps the
 *   rotated k and v, a view of `c_attn`; a `torch.tril(ones(k, k))` bool causal mask, `~` of it, and
 *   `attention_mask.expand(...).masked_fill(...)`, a [b, 1, s, k] additive mask in the model dtype;
 *   `scaled_dot_product_attention` (the memory-efficient kernel: a mask; its output [b, s, a, d] makes
 *   the `transpose` and `_merge_heads` views); `c_proj`. Returning frees the rotated q, both masks
 *   and the attention output.
 * - `QWenBlock.forward`: `attn_output` and the first residual sum bound to locals until it returns;
 *   `QWenMLP.forward`: `a1 = w1(x)`, `a2 = w2(x)` (locals), `a1 * F.silu(a2)`, `c_proj`.
 * - With `use_cache_quantization` (kv=int8) the forward takes `_attn` (`qwen-kv8`): `quantize_cache_v`
 *   stores K and V as new uint8 tensors (so `c_attn`'s output is only a local), and `_attn`
 *   dequantizes them for its eager scores (`quantizeCache`, `qwenEagerAttention` below).
 * - `QWenLMHeadModel.forward`: every position's logits in the model dtype.
 *
 * All three end as `generate`'s `_sample` does: the last position's logits copied to fp32, the output dropped.
 */
import { FP32, type OwnForward, type PrefillOp, type PrefillShape, shapeOf } from './hf-prefill-shape';
import type { ModelArch } from '../types';
import { gatedMlp, nextLayerInput, rmsNormCore, sampleLogits } from './hf-prefill';

/**
 * The shape of a remote-code file's prompt pass (remote-prefill.ts), in 16-bit: the file decides
 * its attention, so neither the attn key nor a window enters.
 */
export function ownPrefillShape(arch: ModelArch, forward: OwnForward, b: number, s: number, e: number): PrefillShape | null {
  const kvBytes = forward === 'qwen-kv8' ? 1 + (2 * e) / arch.headDim : e;
  return e === 2
    ? shapeOf(arch, b, s, e, { forward, kvBytes, qkNorm: false, window: 0, slideEvery: 1, maskKv: 0, repeatKv: { masked: false, causal: false }, eager: null, normHead: arch.normHead === true })
    : null;
}

/**
 * The files' RMSNorm over `elems` elements into `out` (16-bit). ChatGLM and Baichuan square a
 * temporary fp32 copy (`x.to(float32).pow(2).mean(...)`, both gone before `x * rsqrt(·)`); Qwen-1's
 * `_norm(x.float())` keeps its copy bound until the product is made, as transformers' own
 * (hf-prefill.ts `rmsNormCore`). ChatGLM then multiplies by the weight in fp32 and casts last; Baichuan
 * and Qwen-1 cast first and multiply in 16-bit.
 */
function ownRmsNorm(elems: number, e: number, out: string, p: string, file: 'chatglm' | 'baichuan' | 'qwen'): PrefillOp[] {
  const f = elems * FP32;
  const head: PrefillOp[] =
    file === 'qwen'
      ? rmsNormCore(elems, p)
      : [
          { op: 'alloc', id: `${p}x32`, bytes: f },
          { op: 'alloc', id: `${p}sq`, bytes: f },
          { op: 'free', id: `${p}x32` },
          { op: 'free', id: `${p}sq` },
          { op: 'alloc', id: `${p}y32`, bytes: f },
        ];
  if (file === 'chatglm') return [...head, { op: 'alloc', id: `${p}w32`, bytes: f }, { op: 'alloc', id: out, bytes: elems * e }, { op: 'free', id: `${p}w32` }, { op: 'free', id: `${p}y32` }];
  return [...head, { op: 'alloc', id: `${p}y16`, bytes: elems * e }, { op: 'free', id: `${p}y32` }, { op: 'alloc', id: out, bytes: elems * e }, { op: 'free', id: `${p}y16` }];
}

/**
 * After a file's last layer: its final norm into 'final' (the last layer's output freed as the name is
 * rebound), the model's return freeing its locals (`held`), `beforeHead`, the head's logits over
 * `rows` positions in the model dtype, and `_sample`'s fp32 copy of the last one.
 */
function modelEnd(x: PrefillShape, file: 'chatglm' | 'baichuan' | 'qwen', held: readonly string[], rows: number, beforeHead: readonly PrefillOp[] = []): PrefillOp[] {
  return [
    ...ownRmsNorm(x.b * x.s * x.hidden, x.e, 'final', 'norm-', file),
    ...['x', ...held].map((id) => ({ op: 'free', id }) as const),
    ...beforeHead,
    { op: 'alloc', id: 'logits', bytes: x.b * rows * x.vocab * x.e },
    ...sampleLogits(x),
  ];
}

/**
 * The end of a block that keeps its attention's output 'a' bound to a local until it returns
 * (ChatGLM2/3's `GLMBlock`, Qwen-1's `QWenBlock`): the residual sum 'r1', the second norm (`norm`,
 * into 'n2'; the first norm's output 'n1' is freed as its name is rebound), the MLP (`mlp`, into
 * 'm'), the second sum 'r2'; returning frees the block's locals and the model takes 'r2' as 'x'.
 */
function blockEnd(H: number, i: number, norm: readonly PrefillOp[], mlp: readonly PrefillOp[]): PrefillOp[] {
  return [
    { op: 'alloc', id: 'r1', bytes: H },
    ...norm,
    { op: 'free', id: 'n1' },
    ...mlp,
    { op: 'alloc', id: 'r2', bytes: H },
    ...['n2', 'm', 'r1', 'a'].map((id) => ({ op: 'free', id }) as const),
    ...nextLayerInput(i),
  ];
}

/** ChatGLM's `apply_rotary_pos_emb` on `elems` elements whose first half of each head rotates: the two products, their stack, the cat. */
function glmRotary(elems: number, e: number, out: string, p: string): PrefillOp[] {
  return [
    { op: 'alloc', id: `${p}re`, bytes: (elems / 4) * e },
    { op: 'alloc', id: `${p}im`, bytes: (elems / 4) * e },
    { op: 'alloc', id: `${p}st`, bytes: (elems / 2) * e },
    { op: 'free', id: `${p}re` },
    { op: 'free', id: `${p}im` },
    { op: 'alloc', id: out, bytes: elems * e },
    { op: 'free', id: `${p}st` },
  ];
}

/** Before ChatGLM2/3's first layer: the embeddings ('embeds') and the rotary table at the positions ('rope'), both kept. */
export function chatglm2Prologue(x: PrefillShape): PrefillOp[] {
  const { b, s, e } = x;
  const copied = (id: string, bytes: number): PrefillOp[] =>
    b > 1
      ? [
          { op: 'alloc', id: `${id}-bsh`, bytes },
          { op: 'alloc', id, bytes },
          { op: 'free', id: `${id}-bsh` },
        ]
      : [{ op: 'alloc', id, bytes }];
  return [...copied('embeds', b * s * x.hidden * e), ...copied('rope', (b * s * x.headDim * e) / 2)];
}

/** ChatGLM2/3's `GLMBlock` i over the prompt: input 'x' ('embeds' first), output 'x', the cache's rotated K 'kc' and the projection 'vc'. */
export function chatglm2Layer(x: PrefillShape, i: number): PrefillOp[] {
  const { b, s, e } = x;
  const H = b * s * x.hidden * e;
  const Q = b * s * x.heads * x.headDim;
  const G = b * s * x.kvHeads * x.headDim;
  const F = b * s * x.ffn * e;
  const expand = x.kvHeads < x.heads;
  return [
    ...ownRmsNorm(H / e, e, 'n1', 'norm1-', 'chatglm'),
    { op: 'alloc', id: 'vc', bytes: (Q + 2 * G) * e },
    ...glmRotary(Q, e, 'qe', 'ropeq-'),
    ...glmRotary(G, e, 'kc', 'ropek-'),
    ...(expand
      ? ([
          { op: 'alloc', id: 'kx', bytes: Q * e },
          { op: 'alloc', id: 'vx', bytes: Q * e },
        ] as const)
      : []),
    { op: 'alloc', id: 'o', bytes: Q * e },
    { op: 'alloc', id: 'lse', bytes: b * x.heads * s * FP32 },
    { op: 'free', id: 'lse' },
    { op: 'alloc', id: 'a', bytes: H },
    { op: 'free', id: 'qe' },
    ...(expand
      ? ([
          { op: 'free', id: 'kx' },
          { op: 'free', id: 'vx' },
        ] as const)
      : []),
    { op: 'free', id: 'o' },
    ...blockEnd(H, i, ownRmsNorm(H / e, e, 'n2', 'norm2-', 'chatglm'), [
      { op: 'alloc', id: 'h4', bytes: 2 * F },
      { op: 'alloc', id: 'act', bytes: F },
      { op: 'alloc', id: 'prod', bytes: F },
      { op: 'free', id: 'act' },
      { op: 'free', id: 'h4' },
      { op: 'alloc', id: 'm', bytes: H },
      { op: 'free', id: 'prod' },
    ]),
  ];
}

/** After ChatGLM2/3's last layer: the final norm, the model's return, the last row's logits and their fp32 copy. */
export function chatglm2Epilogue(x: PrefillShape): PrefillOp[] {
  return modelEnd(x, 'chatglm', ['embeds', 'rope'], 1);
}

/** Before Baichuan-13B's first layer: the embeddings ('embeds'), then the mask over the prompt (`baichuanAlibiMask`). */
export function baichuanAlibiPrologue(x: PrefillShape): PrefillOp[] {
  return [{ op: 'alloc', id: 'embeds', bytes: x.b * x.s * x.hidden * x.e }, ...baichuanAlibiMask(x, x.s)];
}

/**
 * `BaichuanModel.forward`'s mask chain over `k` keys, made in every forward (decode steps too):
 * from the 2-D attention mask to the [b, a, k, k] 'mask', with 'em16' and 'inv' (its parents) kept
 * beside it until the forward returns.
 */
export function baichuanAlibiMask(x: PrefillShape, k: number): PrefillOp[] {
  const { b, e } = x;
  const M = b * k * k;
  return [
    { op: 'alloc', id: 'm-prod', bytes: M * e },
    { op: 'alloc', id: 'm-gt', bytes: M },
    { op: 'free', id: 'm-prod' },
    { op: 'alloc', id: 'm-tril', bytes: M },
    { op: 'free', id: 'm-gt' },
    { op: 'alloc', id: 'm-diff', bytes: M * e },
    { op: 'alloc', id: 'm-eq', bytes: M },
    { op: 'free', id: 'm-diff' },
    { op: 'alloc', id: 'm-and', bytes: M },
    { op: 'free', id: 'm-tril' },
    { op: 'free', id: 'm-eq' },
    { op: 'alloc', id: 'em16', bytes: M * e },
    { op: 'free', id: 'm-and' },
    { op: 'alloc', id: 'm-inv', bytes: M * e },
    { op: 'alloc', id: 'm-bool', bytes: M },
    { op: 'alloc', id: 'inv', bytes: M * e },
    { op: 'free', id: 'm-bool' },
    { op: 'free', id: 'm-inv' },
    { op: 'alloc', id: 'mask', bytes: M * x.heads * e },
  ];
}

/** Baichuan-13B's `BaichuanLayer` i over the prompt: input 'x', output 'x', the cache's K and V as views of 'kc' (W_pack's output). */
export function baichuanAlibiLayer(x: PrefillShape, i: number): PrefillOp[] {
  const { b, s, e } = x;
  const H = b * s * x.hidden * e;
  const S = b * x.heads * s * s * e;
  // with b > 1 matmul's reshape of a strided view into bmm's batch copies it
  const copy = (id: string): PrefillOp[] => (b > 1 ? [{ op: 'alloc', id, bytes: H }] : []);
  const drop = (...ids: string[]): PrefillOp[] => (b > 1 ? ids.map((id) => ({ op: 'free', id }) as const) : []);
  return [
    ...ownRmsNorm(H / e, e, 'n1', 'norm1-', 'baichuan'),
    { op: 'alloc', id: 'kc', bytes: 3 * H },
    ...scoreChain(S, H, b > 1 ? ['qb', 'kb'] : []),
    ...copy('vb'),
    { op: 'alloc', id: 'o', bytes: H },
    ...drop('vb'),
    { op: 'alloc', id: 'ctx', bytes: H },
    { op: 'free', id: 'o' },
    { op: 'alloc', id: 'a', bytes: H },
    { op: 'free', id: 'ctx' },
    { op: 'free', id: 'p' },
    { op: 'free', id: 'n1' },
    { op: 'alloc', id: 'r1', bytes: H },
    { op: 'free', id: 'a' },
    ...ownRmsNorm(H / e, e, 'n2', 'norm2-', 'baichuan'),
    ...gatedMlp(x),
    { op: 'alloc', id: 'r2', bytes: H },
    { op: 'free', id: 'm' },
    { op: 'free', id: 'r1' },
    ...nextLayerInput(i),
  ];
}

/**
 * The eager score chain both files write: `matmul(q, kᵀ)` ('sc', `copies` — bmm's copies of strided
 * operands, `H` bytes each — alive only for it), then `/ √d`, the mask (Baichuan `+ mask`, Qwen
 * `torch.where`), the next (Baichuan `torch.max`, Qwen `+ mask`) and the softmax ('p'), each `S`
 * bytes and made while the last one exists.
 */
function scoreChain(S: number, H: number, copies: readonly string[]): PrefillOp[] {
  const ops: PrefillOp[] = [...copies.map((id) => ({ op: 'alloc', id, bytes: H }) as const), { op: 'alloc', id: 'sc', bytes: S }, ...copies.map((id) => ({ op: 'free', id }) as const)];
  for (const [made, gone] of [
    ['sc2', 'sc'],
    ['sc3', 'sc2'],
    ['sc4', 'sc3'],
    ['p', 'sc4'],
  ])
    ops.push({ op: 'alloc', id: made!, bytes: S }, { op: 'free', id: gone! });
  return ops;
}

/** After Baichuan-13B's last layer: the final norm, the model's return (the masks go), NormHead's first call, every position's logits, the fp32 copy. */
export function baichuanAlibiEpilogue(x: PrefillShape): PrefillOp[] {
  const head = x.vocab * x.hidden * x.e;
  // the normalised weight replaces the old one, which is freed: the same size, so the same hole
  const normalised: PrefillOp[] = x.normHead
    ? [
        { op: 'alloc', id: 'head', bytes: head },
        { op: 'free', id: 'head' },
      ]
    : [];
  return modelEnd(x, 'baichuan', ['embeds', 'mask', 'em16', 'inv'], x.s, normalised);
}

/** Qwen-1's `apply_rotary_pos_emb` (no fused kernel) on `elems` elements (the whole head rotates) into `out`. */
function qwenRotary(elems: number, e: number, out: string, p: string): PrefillOp[] {
  const f = elems * FP32;
  return [
    { op: 'alloc', id: `${p}tf`, bytes: f },
    { op: 'alloc', id: `${p}c`, bytes: f },
    { op: 'alloc', id: `${p}neg`, bytes: f / 2 },
    { op: 'alloc', id: `${p}rh`, bytes: f },
    { op: 'free', id: `${p}neg` },
    { op: 'alloc', id: `${p}rs`, bytes: f },
    { op: 'free', id: `${p}rh` },
    { op: 'alloc', id: `${p}sum`, bytes: f },
    { op: 'free', id: `${p}c` },
    { op: 'free', id: `${p}rs` },
    { op: 'alloc', id: `${p}cat`, bytes: f },
    { op: 'alloc', id: out, bytes: elems * e },
    { op: 'free', id: `${p}cat` },
    { op: 'free', id: `${p}sum` },
    { op: 'free', id: `${p}tf` },
  ];
}

/** Before Qwen-1's first layer: the embeddings ('embeds'), kept. */
export function qwenPrologue(x: PrefillShape): PrefillOp[] {
  return [{ op: 'alloc', id: 'embeds', bytes: x.b * x.s * x.hidden * x.e }];
}

/**
 * Qwen-1's `QWenBlock` i over the prompt: input 'x', output 'x', the cache's entries 'kc' / 'vc'. With
 * its 16-bit cache (SDPA) they are the rotated K and `c_attn`'s output, which V is a view of; with its
 * 8-bit cache (`qwen-kv8`, eager `_attn`) they are the new uint8 tensors with their scales and zero
 * points, and `c_attn`'s output is a local until the attention returns.
 */
export function qwenLayer(x: PrefillShape, i: number): PrefillOp[] {
  const { b, s, e } = x;
  const H = b * s * x.hidden * e;
  const Q = b * s * x.heads * x.headDim;
  const F = b * s * x.ffn * e;
  const kv8 = x.forward === 'qwen-kv8';
  return [
    ...ownRmsNorm(H / e, e, 'n1', 'norm1-', 'qwen'),
    { op: 'alloc', id: kv8 ? 'qkv' : 'vc', bytes: 3 * H },
    ...qwenRotary(Q, e, 'qe', 'ropeq-'),
    ...qwenRotary(Q, e, kv8 ? 'ke' : 'kc', 'ropek-'),
    ...(kv8 ? [...quantizeCache(x, 'kc'), { op: 'free', id: 'ke' } as const, ...quantizeCache(x, 'vc')] : []),
    { op: 'alloc', id: 'tril1', bytes: s * s },
    { op: 'alloc', id: 'causal', bytes: s * s },
    { op: 'free', id: 'tril1' },
    ...(kv8 ? qwenEagerAttention(x) : qwenSdpa(x)),
    ...blockEnd(H, i, ownRmsNorm(H / e, e, 'n2', 'norm2-', 'qwen'), [
      { op: 'alloc', id: 'a1', bytes: F },
      { op: 'alloc', id: 'a2', bytes: F },
      { op: 'alloc', id: 'act', bytes: F },
      { op: 'alloc', id: 'prod', bytes: F },
      { op: 'free', id: 'act' },
      { op: 'alloc', id: 'm', bytes: H },
      { op: 'free', id: 'a1' },
      { op: 'free', id: 'a2' },
      { op: 'free', id: 'prod' },
    ]),
  ];
}

/** `attention_mask.expand(...).masked_fill(~causal_mask, min)`, SDPA's output, `c_proj` ('a'); the forward's return frees the rest. */
function qwenSdpa(x: PrefillShape): PrefillOp[] {
  const { b, s, e } = x;
  const H = b * s * x.hidden * e;
  return [
    { op: 'alloc', id: 'not', bytes: s * s },
    { op: 'alloc', id: 'am', bytes: b * s * s * e },
    { op: 'free', id: 'not' },
    { op: 'alloc', id: 'o', bytes: H },
    { op: 'alloc', id: 'a', bytes: H },
    ...['qe', 'causal', 'am', 'o'].map((id) => ({ op: 'free', id }) as const),
  ];
}

/**
 * `quantize_cache_v` on one of K / V into the cache entry `out`: `flatten` of the permuted view (a
 * copy), `fdata / scale + zero` and `clamp` in the model dtype, `.to(uint8)` (laid out like its
 * strided input, so `.contiguous()` copies it); the entry's scale and zero point are counted with it.
 */
function quantizeCache(x: PrefillShape, out: string): PrefillOp[] {
  const n = x.b * x.s * x.heads * x.headDim;
  const H = n * x.e;
  const p = `${out}-q`;
  return [
    { op: 'alloc', id: `${p}flat`, bytes: H },
    { op: 'alloc', id: `${p}div`, bytes: H },
    { op: 'alloc', id: `${p}res`, bytes: H },
    { op: 'free', id: `${p}div` },
    { op: 'alloc', id: `${p}cl`, bytes: H },
    { op: 'alloc', id: `${p}u8`, bytes: n },
    { op: 'free', id: `${p}cl` },
    { op: 'alloc', id: out, bytes: n * x.kvBytes },
    ...[`${p}u8`, `${p}res`, `${p}flat`].map((id) => ({ op: 'free', id }) as const),
  ];
}

/**
 * `_attn` over the 8-bit cache: K dequantized (`scale * (q − zero)`, a temporary then the product),
 * `matmul(q, kᵀ)` (with b > 1 the permuted q is copied for bmm), `/ √d`, `torch.where`, `+ mask`,
 * softmax, V dequantized, `matmul(·, v)`; `_attn` returns the probabilities with the output, and
 * `_merge_heads`' `.contiguous()` copies it before `c_proj` ('a'); the forward's return frees the rest.
 */
function qwenEagerAttention(x: PrefillShape): PrefillOp[] {
  const { b, s, e } = x;
  const H = b * s * x.hidden * e;
  const S = b * x.heads * s * s * e;
  const dequant = (out: string): PrefillOp[] => [
    { op: 'alloc', id: `${out}-t`, bytes: H },
    { op: 'alloc', id: out, bytes: H },
    { op: 'free', id: `${out}-t` },
  ];
  return [
    ...dequant('kd'),
    ...scoreChain(S, H, b > 1 ? ['qb'] : []),
    ...dequant('vd'),
    { op: 'alloc', id: 'o', bytes: H },
    { op: 'free', id: 'kd' },
    { op: 'free', id: 'vd' },
    { op: 'alloc', id: 'ctx', bytes: H },
    { op: 'alloc', id: 'a', bytes: H },
    ...['qkv', 'qe', 'causal', 'p', 'o', 'ctx'].map((id) => ({ op: 'free', id }) as const),
  ];
}

/** After Qwen-1's last layer: `ln_f`, the model's return, every position's logits, the fp32 copy. */
export function qwenEpilogue(x: PrefillShape): PrefillOp[] {
  return modelEnd(x, 'qwen', ['embeds'], x.s);
}
