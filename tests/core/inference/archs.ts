/** Architectures from the models' published config.json files (values in docs/reference/formulas.md §1). */
import type { ModelArch } from '../../../src/core/types';

const base = {
  normsPerLayer: 2,
  qkvBias: false,
  oBias: false,
  mlpBias: false,
  gatedMlp: true,
  norm: 'rmsnorm' as const,
};

/** meta-llama/Llama-2-7b-hf */
export const LLAMA2_7B: ModelArch = { ...base, family: 'llama', hidden: 4096, layers: 32, heads: 32, kvHeads: 32, headDim: 128, ffn: 11008, vocab: 32000, tiedEmbeddings: false };
/** meta-llama/Meta-Llama-3-8B */
export const LLAMA3_8B: ModelArch = { ...base, family: 'llama', hidden: 4096, layers: 32, heads: 32, kvHeads: 8, headDim: 128, ffn: 14336, vocab: 128256, tiedEmbeddings: false };
/** Qwen/Qwen2.5-0.5B (tied embeddings) */
export const QWEN25_05B: ModelArch = { ...base, family: 'qwen2', hidden: 896, layers: 24, heads: 14, kvHeads: 2, headDim: 64, ffn: 4864, vocab: 151936, tiedEmbeddings: true, qkvBias: true };
/** Qwen/Qwen2.5-7B */
export const QWEN25_7B: ModelArch = { ...base, family: 'qwen2', hidden: 3584, layers: 28, heads: 28, kvHeads: 4, headDim: 128, ffn: 18944, vocab: 152064, tiedEmbeddings: false, qkvBias: true };
/** mistralai/Mistral-7B-v0.1 (sliding_window 4096 on every layer) */
export const MISTRAL_7B: ModelArch = { ...LLAMA3_8B, family: 'mistral', vocab: 32000, slidingWindow: { window: 4096, layers: 32 } };
/** google/gemma-2-2b config.json: 26 layers, 8 heads of 256, 4 KV heads, window 4096 on 13 layers, tied 256k vocab. */
export const GEMMA2_2B: ModelArch = {
  ...base,
  family: 'gemma2',
  hidden: 2304,
  layers: 26,
  heads: 8,
  kvHeads: 4,
  headDim: 256,
  ffn: 9216,
  vocab: 256000,
  tiedEmbeddings: true,
  slidingWindow: { window: 4096, layers: 13 },
};
/** deepseek-ai/DeepSeek-V3 (MLA, 3 dense + 58 MoE layers) */
export const DEEPSEEK_V3: ModelArch = {
  ...base,
  family: 'deepseek_v3',
  hidden: 7168,
  layers: 61,
  heads: 128,
  kvHeads: 128,
  headDim: 192,
  ffn: 18432,
  vocab: 129280,
  tiedEmbeddings: false,
  mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
  moe: { experts: 256, expertsPerToken: 8, expertFfn: 2048, sharedExperts: 1, sharedFfn: 2048, denseLayers: 3, layerFreq: 1 },
};
/** openai-community/gpt2-xl style GPT layer (LayerNorm, GeLU, f = 4h) */
export const GPT_LIKE: ModelArch = {
  family: 'gpt2',
  hidden: 1600,
  layers: 48,
  heads: 25,
  kvHeads: 25,
  headDim: 64,
  ffn: 6400,
  vocab: 50257,
  gatedMlp: false,
  norm: 'layernorm',
  normsPerLayer: 2,
  tiedEmbeddings: true,
  qkvBias: true,
  oBias: true,
  mlpBias: true,
  positionEmbeddings: 1024,
};
