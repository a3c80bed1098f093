/**
 * The vision tower's forward at inference (HF transformers get_image_features: every image of the
 * batch goes through the tower at once, before the language model's prefill, while the KV cache
 * is still empty). Its largest moment, as formulas.md §3.2 counts a decoder layer:
 * - hidden states of all N = b·n_img·P patch rows: the 4 a layer holds (encoder input, layer
 *   input, residual, normed input), plus every layer's output when the model asks the tower for
 *   output_hidden_states (modeling_llava.py get_image_features: vision_tower(pixel_values,
 *   output_hidden_states=True), then picks vision_feature_layer −2): L_v + 4 rows;
 * - the plain MLP's fc1 output and activation: 2·N·f_v·e (CLIPMLP, SiglipMLP, Qwen2-VL VisionMlp);
 * - eager attention's scores and softmax, no mask (vision attention is not causal): a_v·P² score
 *   elements per image (transient.ts `eagerScoreBytes` bytes each), for all b·n_img images at once (CLIP, SigLIP batch
 *   them) or one at a time (Qwen2-VL VisionAttention splits the packed patches by cu_seqlens).
 *   SDPA and FlashAttention keep O(P).
 * Not divided by tensor parallelism (the tower is replicated).
 */
import type { Attn, VisionTower } from '../types';
import type { ImageGrid } from '../model/vision-tokens';
import { add, evaluate, max, mul, sym, type Expr } from '../formula';
import { eagerScoreBytes } from './transient';

export interface VisionForward {
  bytes: number;
  expr: Expr;
  kind: 'mlp' | 'attention-scores';
}

/** Peak bytes of the vision tower's forward over `batch` sequences of `images` images of `grid`, element size `e`. */
export function visionForward(v: VisionTower, grid: ImageGrid, batch: number, images: number, e: number, attn: Attn, fp16 = false): VisionForward {
  const n = mul(sym('b', batch), sym('n_img', images));
  const P = sym('P', grid.patches);
  const E = sym('e', e);
  const rows = v.keepsAllHidden ? add(sym('L_v', v.layers), 4) : 4;
  const hidden = mul(rows, n, P, sym('h_v', v.hidden), E);
  const mlp = mul(2, n, P, sym('f_v', v.ffn), E);
  if (attn === 'eager') {
    const together = v.perImageAttention ? 1 : n;
    const scores = mul(together, sym('a_v', v.heads), P, P, eagerScoreBytes(e, fp16));
    const expr = add(hidden, max(mlp, scores));
    return { bytes: evaluate(expr), expr, kind: evaluate(scores) > evaluate(mlp) ? 'attention-scores' : 'mlp' };
  }
  const expr = add(hidden, mlp);
  return { bytes: evaluate(expr), expr, kind: 'mlp' };
}
