/**
 * Vision towers counted by hand from each config and the modeling file that builds it, against the
 * publishers' totals:
 * - LLaVA-1.5-7b (llava-hf/llava-1.5-7b-hf, model page: 7.06B): Llama-2-7b with 32,064 tokens + CLIP
 *   ViT-L/14-336 (modeling_clip.py) + LlavaMultiModalProjector;
 * - Qwen2-VL-7B-Instruct (model page: 8.29B; Qwen2-VL paper arXiv 2409.12191 Table 1: vision
 *   encoder 675M, LLM 7.6B): Qwen2VisionTransformerPretrainedModel (modeling_qwen2_vl.py).
 */
import { describe, expect, it } from 'vitest';
import { parseHfConfig } from '../../../src/core/model/config';
import { isModelArch } from '../../../src/core/model/arch-check';
import { countParams } from '../../../src/core/model/params';
import { findPreset } from '../../../src/core/model/presets';

const arch = (id: string) => {
  const p = findPreset(id);
  if (!p) throw new Error(id);
  return p.arch;
};

describe('CLIP ViT-L/14-336 + LLaVA projector', () => {
  // CLIPVisionEmbeddings: Conv2d(3, 1024, 14, bias=False) 602,112; class_embedding 1,024;
  // position_embedding (24² + 1) · 1,024 = 590,848; pre_layrnorm + post_layernorm 2 · 2,048.
  // CLIPEncoderLayer: q/k/v/out 4 · (1,024² + 1,024) = 4,198,400; fc1 + fc2 1,024·4,096 + 4,096 +
  // 4,096·1,024 + 1,024 = 8,393,728; two LayerNorms 4,096 → 12,596,224, × 24 = 302,309,376.
  const tower = 602_112 + 1_024 + 590_848 + 4_096 + 302_309_376;
  // linear_1 Linear(1,024, 4,096) + linear_2 Linear(4,096, 4,096), both biased
  const projector = 1_024 * 4_096 + 4_096 + 4_096 * 4_096 + 4_096;

  it('tower 303,507,456 + projector 20,979,712', () => {
    expect(tower).toBe(303_507_456);
    expect(arch('llava-hf/llava-1.5-7b-hf').visionParams).toBe(tower + projector);
  });

  it('the total is the published 7.06B: Llama-2-7b (6,738,415,616) with 64 more vocabulary rows in embedding and head', () => {
    const total = 6_738_415_616 + 2 * 64 * 4_096 + tower + projector;
    expect(countParams(arch('llava-hf/llava-1.5-7b-hf')).total).toBe(total);
    expect((total / 1e9).toFixed(2)).toBe('7.06');
  });

  it('reads the language model from LlamaConfig defaults the text_config leaves out', () => {
    const a = arch('llava-hf/llava-1.5-7b-hf');
    expect([a.hidden, a.ffn, a.layers, a.heads, a.kvHeads, a.vocab, a.maxContext]).toEqual([4096, 11008, 32, 32, 32, 32064, 4096]);
    // 'default' feature strategy drops the class token: (336 / 14)² tokens, every hidden state kept
    expect(a.vision).toMatchObject({ tokensPerImage: 576, imageSize: 336, classToken: true, keepsAllHidden: true });
  });
});

describe('Qwen2-VL-7B vision tower', () => {
  // PatchEmbed Conv3d(3, 1280, (2, 14, 14), bias=False): 3 · 2 · 14 · 14 · 1,280 = 1,505,280
  // Qwen2VLVisionBlock: norm1 + norm2 2 · 2,560; qkv 1,280 · 3,840 + 3,840; proj 1,280² + 1,280;
  // fc1 1,280 · 5,120 + 5,120; fc2 5,120 · 1,280 + 1,280 = 19,677,440, × 32 = 629,678,080
  // PatchMerger: ln_q 2,560; Linear(5,120, 5,120) 26,219,520; Linear(5,120, 3,584) 18,353,664
  const vision = 1_505_280 + 629_678_080 + 2_560 + 26_219_520 + 18_353_664;

  it("is the paper's 675M", () => {
    expect(arch('Qwen/Qwen2-VL-7B-Instruct').visionParams).toBe(vision);
    // 675,759,104: the paper gives the millions whole
    expect(Math.floor(vision / 1e6)).toBe(675);
  });

  it('with Qwen2-7B (7,615,616,512) is the published 8.29B', () => {
    expect(countParams(arch('Qwen/Qwen2-VL-7B-Instruct')).total).toBe(7_615_616_512 + vision);
    expect(((7_615_616_512 + vision) / 1e9).toFixed(2)).toBe('8.29');
  });

  it('is dynamic-resolution: 2×2 merge, the processor bounds of the model card (4–16384 tokens)', () => {
    expect(arch('Qwen/Qwen2-VL-7B-Instruct').vision).toMatchObject({ imageSize: null, merge: { side: 2, minPixels: 4 * 784, maxPixels: 16384 * 784 }, perImageAttention: true });
  });
});

describe('Gemma-3 4B', () => {
  it('256 tokens per image (mm_tokens_per_image), 896-px SigLIP of 64² patches', () => {
    expect(arch('google/gemma-3-4b-pt').vision).toMatchObject({ tokensPerImage: 256, imageSize: 896, patch: 14, classToken: false, keepsAllHidden: false });
  });
});

describe('a pasted vision config', () => {
  it('keeps the tower shape through the saved-model check', () => {
    for (const id of ['llava-hf/llava-1.5-7b-hf', 'Qwen/Qwen2-VL-7B-Instruct', 'google/gemma-3-4b-pt']) expect(isModelArch(arch(id))).toBe(true);
    expect(isModelArch({ ...arch('Qwen/Qwen2-VL-7B-Instruct'), vision: { ...arch('Qwen/Qwen2-VL-7B-Instruct').vision, merge: { side: 0 } } })).toBe(false);
  });

  it('refuses a Qwen2-VL mlp_ratio that gives no whole MLP width, naming the field', () => {
    const r = parseHfConfig({
      model_type: 'qwen2_vl',
      hidden_size: 64,
      num_hidden_layers: 2,
      num_attention_heads: 4,
      vocab_size: 100,
      vision_config: { depth: 2, embed_dim: 32, num_heads: 4, mlp_ratio: 'x' },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.key).toBe('vision_config.mlp_ratio');
  });
});
