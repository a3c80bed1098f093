/**
 * What a quantized checkpoint's Linear holds at its peak inside a forward over n = b·q token rows,
 * its output included, and so what the MLP holds while its widest Linears run. A plain Linear
 * holds only its output, n·d_out·e; the kernels below make more, read from their source:
 *
 * - 'dequant' — the whole weight dequantized to 16-bit beside the output, 2·d_in·d_out:
 *   AutoAWQ ≥ 0.2 awq/modules/linear/gemm.py `WQLinearMMFunction.forward` (transformers 4.x's AWQ
 *   GEMM path) from 1,024 rows (`x.shape[0] * x.shape[1] >= 1024`: `dequantize_weights_cuda`, then
 *   `torch.matmul`; the weight is freed when `out` is rebound), and bitsandbytes 4-bit with a 16-bit
 *   `bnb_4bit_compute_dtype` (autograd/_functions.py `matmul_4bit` → `MatMul4Bit.forward`:
 *   `linear(A, dequantize_4bit(B).to(A.dtype).t())`, for more than one row), and ChatGLM's own int8 /
 *   int4 `W8A16Linear` at every matmul (remote-runtime.ts `ownQuant`).
 * - 'dequant-fp32' — bitsandbytes 4-bit under its float32 default compute dtype:
 *   nn/modules.py `Linear4bit.forward` casts the input to fp32 (4·n·d_in, held until it returns),
 *   `dequantize_4bit(B).to(float32)` holds the 16-bit and the fp32 weight for a moment (6·d_in·d_out),
 *   the fp32 product (4·n·d_out) is made beside the fp32 weight, and `.to(inp_dtype)` makes the output
 *   beside the fp32 product.
 * - 'int8' — bitsandbytes LLM.int8 (≥ 0.45, autograd/_functions.py `MatMul8bitLt.forward`,
 *   backends/cuda/ops.py): `int8_vectorwise_quant` allocates CA (int8, n·d_in) and then the
 *   `A.abs() >= threshold` outlier test (2 + 1 B per input element) beside the fp16 copy of A made
 *   for it (`A.to(torch.float16)`, none for fp16 activations); `int8_scaled_mm` then holds CA, the int32
 *   product (`int8_linear_matmul`, 4·n·d_out) and `int8_mm_dequant`'s fp16 result (2·n·d_out), which
 *   `.to(A.dtype)` copies for bf16 activations (e more). Outlier columns add only their few columns.
 *
 * Which kind a format's kernel runs at a given row count: `quantLinear`.
 */
import type { BnbCompute, ModelArch, WeightFormat } from '../types';
import { FAMILIES } from '../model/families';
import { blockKinds, mlpWidth } from '../model/tensors';
import { AWQ_DEQUANT_ROWS, bnb4bit, bnb4bitFormat, bnbDequantBytes, bnbInt8 } from '../formats/quantized';
import { doubleQuantOn } from '../formats/weights';
import { add, div, max, mul, sub, sym, type Expr } from '../formula';

export type QuantLinear = 'dequant' | 'dequant-fp32' | 'int8';

/** How the Linears of weights `w` run a forward over `rows` token rows (b·q); null: as a plain Linear (or a kernel with fixed buffers: GPTQ). */
export function quantLinear(w: WeightFormat, compute: BnbCompute, rows: number): QuantLinear | null {
  if (w === 'bnb-int8') return 'int8';
  if (bnb4bitFormat(w)) return rows > 1 ? (compute === 'fp32' ? 'dequant-fp32' : 'dequant') : null;
  return w === 'awq-int4' && rows >= AWQ_DEQUANT_ROWS ? 'dequant' : null;
}

/** One Linear at its peak over n = S·B rows: d_in → d_out, output included (per GPU: everything over T). */
function linearMoment(q: QuantLinear, dIn: Expr, dOut: Expr, S: Expr, B: Expr, E: Expr, fp16: boolean): Expr {
  const n = mul(S, B);
  const inp = mul(n, dIn);
  const out = mul(n, dOut);
  const w = mul(dIn, dOut);
  switch (q) {
    case 'dequant':
      return add(mul(bnbDequantBytes('bf16', 1), w), mul(out, E));
    case 'dequant-fp32':
      // the 16-bit weight and its fp32 cast together (bnbDequantBytes), then the fp32 weight beside the fp32 product
      return add(mul(4, inp), max(mul(bnbDequantBytes('fp32', 1), w), add(mul(4, w), mul(4, out)), add(mul(4, out), mul(out, E))));
    case 'int8':
      return max(mul(inp, fp16 ? 4 : 6), add(inp, mul(out, fp16 ? 6 : add(6, E))));
  }
}

/** The MLP's width f (a MoE layer's widest expert or shared MLP where it is wider). */
export function mlpF(arch: ModelArch): Expr {
  const denseF = arch.moe && arch.moe.denseLayers === 0 ? 0 : arch.ffn;
  return sym('f', Math.max(denseF, arch.moe ? mlpWidth(arch, true) : 0));
}

/**
 * The MLP's moments while its Linears run, per GPU (transient.ts adds the hidden rows):
 * - gated (Llama `down_proj(act(gate_proj(x)) * up_proj(x))`): up_proj beside act(gate), down_proj beside the product;
 * - fused gate-up (Phi-3 `gate_up_proj`): the 2f-wide projection, then down_proj beside that output (a view keeps it), act's and the product;
 * - plain (fc1 → act → fc2): fc1, then fc2 beside the activation.
 * `atDown`: the f-wide tensors a file's own MLP holds at its down projection, where they differ.
 */
export function quantMlp(arch: ModelArch, q: QuantLinear, S: Expr, B: Expr, E: Expr, T: Expr, fp16: boolean, atDown?: number): Expr {
  const F = mlpF(arch);
  const h = sym('h', arch.hidden);
  const nF = mul(S, B, F, E);
  const fused = arch.gatedMlp && FAMILIES[arch.family]?.fusedGateUp === true;
  const first = linearMoment(q, h, fused ? mul(2, F) : F, S, B, E, fp16);
  const heldFirst = arch.gatedMlp && !fused ? nF : 0;
  const heldDown = mul(atDown ?? (fused ? 3 : 1), nF);
  return div(max(add(heldFirst, first), add(heldDown, linearMoment(q, F, h, S, B, E, fp16))), T);
}

/**
 * Bytes above the final weights while transformers 4.x loads a checkpoint into bitsandbytes
 * (`load_in_8bit` / `load_in_4bit`), on a GPU holding quantized layers: each Linear's 16-bit
 * weight goes to the GPU and is quantized there (transformers quantizers/quantizer_bnb_*bit.py
 * `create_quantized_param` → bitsandbytes nn/modules.py `Int8Params._quantize`: `B =
 * self.data.contiguous().to(device, float16)`, `int8_vectorwise_quant(B)`, `del B`; `Params4bit._quantize`:
 * `w = self.data.contiguous().to(device)`, `quantize_4bit(w)`), so the 16-bit copy, 2 B per
 * weight, sits beside everything loaded before it. The shard's tensors load in the order safetensors
 * lists them, sorted by name (bindings/python/src/lib.rs `keys`), so the last block loaded ends
 * with its MLP or with its attention (families.ts `loadsLast`). The peak is the larger of the last
 * Linear's copy with everything else in place and the MLP's widest copy less the attention's
 * quantized Linears still to come (the last attention Linear: the v projection, or the fused
 * q/k/v one; Baichuan's o_proj). 0 for other formats and for MoE and hybrid blocks.
 */
export function quantizeOnLoad(arch: ModelArch, s: { weights: WeightFormat; doubleQuant: 'auto' | 'on' | 'off' }): Expr {
  const w = s.weights;
  if (!(w === 'bnb-int8' || bnb4bitFormat(w)) || arch.moe || arch.hybrid) return 0;
  const dq = w !== 'bnb-int8' && doubleQuantOn(s);
  const key = `${w}:${dq}`;
  let byFormat = LOAD_MEMO.get(arch);
  if (!byFormat) LOAD_MEMO.set(arch, (byFormat = new Map<string, LoadSizes | null>()));
  let z = byFormat.get(key);
  if (z === undefined) byFormat.set(key, (z = loadSizes(arch, w === 'bnb-int8' ? bnbInt8 : bnb4bit(dq))));
  if (!z) return 0;
  const mlp = sym('n_mlp', z.mlp);
  return z.mlpLast ? mul(2, mlp) : max(mul(2, sym('n_last', z.last)), sub(mul(2, mlp), sym('attn_q', z.after)));
}

/** What quantizeOnLoad reads of a model's block: the widest MLP Linear, the last attention Linear, the attention's quantized bytes. */
interface LoadSizes {
  mlp: number;
  mlpLast: boolean;
  last: number;
  after: number;
}

/** LoadSizes per model and format: the block's Linears are walked once (estimate() runs on every slider step). */
const LOAD_MEMO = new WeakMap<ModelArch, Map<string, LoadSizes | null>>();

function loadSizes(arch: ModelArch, linearBytes: (din: number, dout: number) => number): LoadSizes | null {
  const kind = blockKinds(arch).find((k) => k.kind === 'dense');
  const ffn = kind?.linears.filter((t) => t.role.startsWith('ffn')) ?? [];
  const attn = kind?.linears.filter((t) => t.role.startsWith('attn')) ?? [];
  if (ffn.length === 0) return null;
  const order = FAMILIES[arch.family]?.loadsLast;
  const last = (order === 'attn-output' ? attn.find((t) => t.role === 'attn_output') : (attn.find((t) => t.role === 'attn_v') ?? attn.find((t) => t.role === 'attn_qkv'))) ?? attn[attn.length - 1];
  return {
    mlp: Math.max(...ffn.map((t) => t.din * t.dout)),
    mlpLast: order === 'mlp' || !last,
    last: last ? last.din * last.dout : 0,
    after: attn.reduce((sum, t) => sum + linearBytes(t.din, t.dout) * t.copies, 0),
  };
}
