/**
 * Vision-language inference on transformers, counted by hand: the image tokens join the prompt
 * (KV cache 2·L·g·d·e per token), and the tower's forward (inference/vision-encoder.ts, from
 * modeling_llava.py / modeling_qwen2_vl.py get_image_features) runs before the prefill.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario, parseScenario } from '../../../src/core/scenario';
import type { Scenario } from '../../../src/core/types';

function run(p: Partial<Scenario>) {
  const r = estimate({ ...defaultScenario(), mode: 'inference', engine: 'transformers', weights: 'bf16', kv: 'bf16', batch: 1, prompt: 1000, gen: 100, ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const term = (p: Partial<Scenario>, id: string) => run(p).terms.find((t) => t.id === id)?.bytes;

describe('LLaVA-1.5-7b', () => {
  const llava: Partial<Scenario> = { model: 'llava-hf/llava-1.5-7b-hf' };
  it('each image adds 576 prompt tokens to the KV cache', () => {
    // Llama-2-7b: 2 · 32 layers · 32 heads · 128 · 2 B = 524,288 B per token
    expect(term({ ...llava, images: 1 }, 'kv-cache')).toBe(524_288 * (1000 + 576 + 100));
    expect(term({ ...llava, images: 3 }, 'kv-cache')).toBe(524_288 * (1000 + 3 * 576 + 100));
    expect(term({ ...llava, images: 0 }, 'kv-cache')).toBe(524_288 * 1100);
    expect(term({ ...llava, images: 0 }, 'vision-encoder')).toBeUndefined();
  });

  it('the CLIP tower keeps its 25 hidden states: (24 + 4) rows of 577 × 1,024, plus the MLP', () => {
    const hidden = 28 * 577 * 1024 * 2;
    const mlp = 2 * 577 * 4096 * 2;
    expect(term({ ...llava, batch: 2 }, 'vision-encoder')).toBe(2 * (hidden + mlp));
    // eager: 16 heads · 577² scores for both images at once (CLIP batches them). bf16: the scores,
    // their fp32 copy and the fp32 softmax, 2 + 4 + 4 B (SoftMax.cpp fuses the upcast for Half only);
    // fp16: the scores, the fp32 softmax and its fp16 copy, 2 + 4 + 2 B
    const scores = (bytes: number) => 2 * 16 * 577 * 577 * bytes;
    expect(term({ ...llava, batch: 2, attn: 'eager' }, 'vision-encoder')).toBe(2 * hidden + Math.max(2 * mlp, scores(10)));
    expect(term({ ...llava, batch: 2, attn: 'eager', weights: 'fp16' }, 'vision-encoder')).toBe(2 * hidden + Math.max(2 * mlp, scores(8)));
  });
});

describe('Qwen2-VL-7B', () => {
  const qwen: Partial<Scenario> = { model: 'Qwen/Qwen2-VL-7B-Instruct' };
  it('a 448-px image is 256 tokens; the default 1024-px one 1,369', () => {
    // Qwen2-7B: 2 · 28 layers · 4 KV heads · 128 · 2 B = 57,344 B per token
    expect(term({ ...qwen, resolution: 448 }, 'kv-cache')).toBe(57_344 * (1000 + 256 + 100));
    expect(term({ ...qwen, resolution: null }, 'kv-cache')).toBe(57_344 * (1000 + 1369 + 100));
  });

  it('eager vision attention runs image by image: one image of scores, whatever the count', () => {
    // 448 px: P = 1,024 patches per image; 2 images: N = 2,048 rows of 1,280
    const hidden = 4 * 2048 * 1280 * 2;
    const mlp = 2 * 2048 * 5120 * 2;
    const scores = 16 * 1024 * 1024 * 10; // bf16 scores + fp32 copy + fp32 softmax
    expect(term({ ...qwen, resolution: 448, images: 2, attn: 'eager' }, 'vision-encoder')).toBe(hidden + Math.max(mlp, scores));
    expect(term({ ...qwen, resolution: 448, images: 2, attn: 'sdpa' }, 'vision-encoder')).toBe(hidden + mlp);
  });

  it('the tower runs before the prefill, while the KV cache is empty: its peak can be the peak', () => {
    // 4,096-px image: 292² = 85,264 patches before max_pixels → 256² = 65,536 patches, 16,384 tokens;
    // eager scores of the one image, 16 · 65,536² · 8 B = 550 GB, beside the language model's
    // prefill (28 · 16,400² · 8 B of scores): the tower's moment is the peak, with weights + workspace
    const e = run({ ...qwen, resolution: 4096, images: 1, attn: 'eager', prompt: 15, gen: 1 });
    const v = e.terms.find((t) => t.id === 'vision-encoder')!.bytes;
    const w = e.terms.find((t) => t.id === 'weights')!.bytes;
    const ws = e.terms.find((t) => t.id === 'workspace')!.bytes;
    expect(v).toBeGreaterThan(16 * 65_536 ** 2 * 8);
    expect(e.allocatedBytes).toBe(w + ws + v);
  });
});

describe('the images and resolution keys', () => {
  it('warn for a text model and change nothing', () => {
    const p = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', images: '4', resolution: '512' });
    expect(p.warnings.filter((w) => w.code === 'unused-for-model').map((w) => w.key)).toEqual(['images', 'resolution']);
    expect(run({ model: 'meta-llama/Llama-2-7b-hf', images: 4 }).allocatedBytes).toBe(run({ model: 'meta-llama/Llama-2-7b-hf', images: 0 }).allocatedBytes);
  });

  it('resolution warns for a model whose processor resizes every image to one size', () => {
    const p = parseScenario({ model: 'google/gemma-3-4b-pt', resolution: '512' });
    expect(p.warnings.map((w) => [w.key, w.code, w.params?.size])).toEqual([['resolution', 'fixed-resolution', 896]]);
    expect(parseScenario({ model: 'Qwen/Qwen2-VL-7B-Instruct', resolution: '512' }).warnings).toEqual([]);
  });

  it("count toward the model's context, with a note that says how many tokens they added", () => {
    // LLaVA-1.5 (max_position_embeddings 4,096): 3,000 text + 2 · 576 image + 256 generated = 4,408
    const p = parseScenario({ model: 'llava-hf/llava-1.5-7b-hf', prompt: '3000', images: '2', gen: '256' });
    expect(p.warnings.map((w) => [w.code, w.params?.tokens])).toEqual([['exceeds-context', 4408]]);
    const notes = run({ model: 'llava-hf/llava-1.5-7b-hf', prompt: 3000, images: 2 }).notes;
    expect(notes.find((n) => n.code === 'inference.image-tokens')?.params).toEqual({ images: 2, tokens: 576, text: 3000, prompt: 4152 });
  });

  it('are inference keys: given in training they warn', () => {
    const p = parseScenario({ model: 'Qwen/Qwen2-VL-7B-Instruct', mode: 'training', images: '2' });
    expect(p.warnings.map((w) => [w.key, w.code])).toEqual([['images', 'unused-key']]);
  });
});
