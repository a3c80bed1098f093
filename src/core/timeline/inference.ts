/**
 * HF transformers `generate` as tensor allocations, from inference/transformers.ts
 * (`InferencePhases`): weights; prefill, per layer the prompt's K and V, the bitsandbytes
 * dequantized weight and the forward transient; then decode, where DynamicCache.update
 * (transformers cache_utils.py: `self.key_cache[layer_idx] = torch.cat([self.key_cache[layer_idx],
 * key_states], dim=-2)`, likewise for values) allocates a new K and V one token longer for every
 * layer and frees the old ones, so every token leaves a hole one layer's K long — the pattern
 * that fragments the cache. Long generations are replayed in at most MAX_DECODE_STEPS steps of
 * several tokens each (the same growth, fewer events).
 */
import type { EstimateDetail } from '../estimate';
import type { Handle, Replay } from './replay';

export const MAX_DECODE_STEPS = 256;

export function replayInference(r: Replay, d: EstimateDetail): void {
  const p = d.built.inference;
  if (!p) return;
  const groups = d.weightTensors;
  const sum = groups.reduce((n, g) => n + g.bytes * g.count, 0) || 1;
  // weights at their shapes, scaled to this GPU's share
  for (const g of groups) for (let k = 0; k < g.count && r.ok; k++) r.alloc('weights', (g.bytes * p.weights) / sum);
  if (p.kernel > 0) r.alloc('buffers', p.kernel);
  r.alloc('buffers', p.workspace);
  // a vision-language model's tower encodes the images first (inference/vision-encoder.ts)
  if (p.vision > 0) r.free(r.alloc('temporary', p.vision));
  r.mark('prefill');
  const L = p.layers;
  const tokens = p.prompt + p.gen;
  const kvPerToken = tokens > 0 && L > 0 ? p.kvFull / tokens / L / 2 : 0;
  const promptK = L > 0 ? p.kvPrompt / L / 2 : 0;
  const k: (Handle | null)[] = [];
  const v: (Handle | null)[] = [];
  for (let i = 0; i < Math.max(1, L); i++) {
    if (L > 0) {
      k.push(r.alloc('kv', promptK));
      v.push(r.alloc('kv', promptK));
    }
    const dq = r.alloc('temporary', p.dequant);
    r.free(r.alloc('temporary', p.prefill));
    r.free(dq);
    r.mark('prefill');
  }
  if (p.gen <= 0 || L === 0) return;
  const steps = Math.min(p.gen, MAX_DECODE_STEPS);
  for (let t = 1; t <= steps && r.ok; t++) {
    const upto = p.prompt + Math.round((p.gen * t) / steps);
    const trans = r.alloc('temporary', p.decode);
    for (let i = 0; i < L; i++) {
      const nk = r.alloc('kv', kvPerToken * upto);
      r.free(k[i]);
      k[i] = nk;
      const nv = r.alloc('kv', kvPerToken * upto);
      r.free(v[i]);
      v[i] = nv;
    }
    r.free(trans);
    r.mark('decode');
  }
}
