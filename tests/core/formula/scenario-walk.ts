/**
 * The scenarios the formula read-back walks (terms-formulas.test.ts) and the Chinese derivation-value
 * check (tests/ui/i18n/derivation-values.test.ts): inference on every engine and training in every
 * setup the estimator prices, so both cover the same terms.
 */
import type { Scenario } from '../../../src/core/types';
import { BAICHUAN2_13B_CONFIG, CHATGLM_6B_CONFIG, INTERNLM2_7B_CONFIG, INTERNLM_7B_CONFIG, archOf } from '../model/remote-configs';
export const LLAMA2 = 'meta-llama/Llama-2-7b-hf';

/** A remote-code model typed in as its config.json (no preset). */
const custom = (config: Record<string, unknown>): Partial<Scenario> => ({ model: 'custom', arch: archOf(config) });

export const INFERENCE: Partial<Scenario>[] = [
  { model: LLAMA2, weights: 'fp16', kv: 'fp16', prompt: 3000, gen: 1096, batch: 2 },
  { model: LLAMA2, attn: 'eager', prompt: 4096, batch: 4 },
  { model: LLAMA2, weights: 'fp32', kv: 'fp32', logitsPath: 'upcast-in-model', prompt: 512 },
  { model: LLAMA2, logitsPath: 'remote-code', prompt: 1000, gen: 0 },
  { model: LLAMA2, tp: 2, gpus: 2 },
  { model: LLAMA2, pp: 2, gpus: 2 },
  { model: 'meta-llama/Llama-3.1-70B', tp: 4, pp: 2, gpus: 8 },
  { model: LLAMA2, split: 'layers', gpus: 3 },
  { model: 'meta-llama/Llama-3.1-8B', split: 'layers', gpus: 2, gpu: 'rtx-4090' },
  { model: LLAMA2, weights: 'nf4', bnbCompute: 'fp32', prompt: 300, batch: 3 },
  { model: LLAMA2, weights: 'int8' },
  { model: LLAMA2, weights: 'bnb-int8', prompt: 2048 },
  { model: 'Qwen/Qwen2.5-0.5B', weights: 'awq-int4' },
  { model: 'Qwen/Qwen2.5-7B', weights: 'gptq-int4', kv: 'int8' },
  { model: LLAMA2, weights: 'gptq-int4', gptqKernel: 'exllamav2' },
  { model: LLAMA2, weights: 'gptq-int4', descAct: 'on', prompt: 2048 },
  { model: 'llava-hf/llava-1.5-7b-hf', images: 2, prompt: 512 },
  { model: 'Qwen/Qwen2-VL-7B-Instruct', images: 1, resolution: 1024, attn: 'eager' },
  { model: 'google/gemma-3-4b-pt', images: 1 },
  { model: 'BAAI/bge-m3', prompt: 512, gen: 0, batch: 8 },
  { model: 'google/gemma-2-9b', prompt: 8000, gen: 500 },
  { model: 'google/gemma-2-9b', prompt: 1024, gen: 8192 },
  { model: 'deepseek-ai/DeepSeek-V3', weights: 'fp8', tp: 8, gpus: 8, prompt: 512 },
  { model: 'mistralai/Mixtral-8x7B-v0.1', attn: 'eager', prompt: 2048 },
  { model: 'google-bert/bert-base-uncased', prompt: 512, gen: 0 },
  { model: 'google-t5/t5-base', prompt: 512, gen: 64 },
  { model: '', params: 7e9, prompt: 1024 },
  ...(['rtx-3090', 'h100-sxm', ''] as const).flatMap((gpu) => [
    { engine: 'vllm' as const, model: 'meta-llama/Llama-3.1-8B', gpu },
    { engine: 'vllm' as const, model: 'meta-llama/Llama-3.1-8B', gpu, ubatch: 512, batch: 64, gpuUtil: 0.5 },
  ]),
  { engine: 'vllm', model: 'meta-llama/Llama-3.1-70B', tp: 4, pp: 2, gpus: 8, gpu: 'h100-sxm' },
  { engine: 'vllm', model: 'google/gemma-2-9b', gpu: 'a100-80gb-sxm4', kv: 'fp8' },
  { engine: 'vllm', model: 'deepseek-ai/DeepSeek-V3', weights: 'fp8', tp: 8, gpus: 8, gpu: 'h200-sxm' },
  { engine: 'vllm', model: 'Qwen/Qwen2.5-0.5B', gpu: '1GiB' },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q4_k_m', kv: 'fp16', attn: 'flash' },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q8_0', kv: 'q8_0', attn: 'sdpa', ngl: 20, prompt: 30000 },
  { engine: 'llama.cpp', model: 'google/gemma-2-9b', weights: 'gguf-q4_k_m', kv: 'q4_0', attn: 'flash', batch: 4 },
  { engine: 'llama.cpp', model: 'Qwen/Qwen2.5-3B', weights: 'gguf-q6_k', kv: 'fp16', ngl: 36 },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q4_k_m', kv: 'fp16', gpus: 2, tensorSplit: [3, 1] },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'gguf-q4_k_m', kv: 'fp16', gpus: 3, ngl: 20 },
  { engine: 'llama.cpp', model: LLAMA2, weights: 'fp16', kv: 'fp16', gpus: 2, tensorSplit: [1, 3] },
  { engine: 'llama.cpp', model: 'deepseek-ai/DeepSeek-V3', weights: 'gguf-q2_k', kv: 'fp16', attn: 'flash' },
  // models running their own modeling file (inference/remote-runtime.ts)
  { model: 'Qwen/Qwen-7B', prompt: 2048, gen: 256 },
  { model: 'Qwen/Qwen-7B', attn: 'flash', prompt: 512 },
  { model: 'Qwen/Qwen-7B', kv: 'int8', prompt: 1024, gen: 64 },
  { model: 'THUDM/chatglm3-6b', prompt: 1024, gen: 4096 },
  { ...custom(BAICHUAN2_13B_CONFIG), prompt: 2048, gen: 256 },
  { ...custom({ ...BAICHUAN2_13B_CONFIG, hidden_size: 4096, intermediate_size: 11008, max_position_embeddings: 4096, num_attention_heads: 32, num_hidden_layers: 32 }), prompt: 1024 },
  { ...custom(CHATGLM_6B_CONFIG), prompt: 1024 },
  { ...custom(INTERNLM2_7B_CONFIG), prompt: 1024 },
  { ...custom(INTERNLM_7B_CONFIG), prompt: 1024, gen: 64 },
  // Falcon's own eager path and SDPA's math kernel (multi-query K/V)
  { model: 'tiiuae/falcon-7b', attn: 'eager', prompt: 2048 },
  { model: 'tiiuae/falcon-7b', prompt: 2048 },
  // image generation (core/diffusion): CFG, the fp32 VAE upcast, eager scores, offload, Flux tokens
  { model: 'runwayml/stable-diffusion-v1-5', weights: 'fp16', attn: 'eager', batch: 3 },
  { model: 'stabilityai/stable-diffusion-xl-base-1.0', weights: 'fp16', resolution: 1024, batch: 2 },
  { model: 'stabilityai/stable-diffusion-xl-base-1.0', offloadModel: 'on', cfg: 'off', resolution: 768 },
  { model: 'black-forest-labs/FLUX.1-dev', resolution: 1360, batch: 2 },
  { model: 'black-forest-labs/FLUX.1-schnell', weights: 'fp32', offloadModel: 'on', cfg: 'on' },
];

export const TRAINING: Partial<Scenario>[] = [
  { model: LLAMA2, precision: 'fp32', optimizer: 'adamw', seq: 512 },
  { model: LLAMA2, precision: 'amp-bf16', attn: 'eager', seq: 1024 },
  { model: LLAMA2, precision: 'bf16', gradCkpt: 'full', seq: 4096 },
  { model: LLAMA2, precision: 'amp-fp16', gradCkpt: 'selective', gradAccum: 4 },
  { model: LLAMA2, method: 'lora', loraTargets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'], loraRank: 64, loraDropout: 0.1 },
  { model: LLAMA2, method: 'lora', loraSave: 'embed,head', adapterDtype: 'base', precision: 'bf16' },
  { model: LLAMA2, method: 'qlora', weights: 'nf4', gradCkpt: 'full', optimizer: 'paged-adamw-8bit' },
  { model: LLAMA2, method: 'qlora', weights: 'nf4', bnbCompute: 'bf16', precision: 'bf16', loraSave: 'head' },
  { model: LLAMA2, method: 'lora', weights: 'gptq-int4' },
  { model: LLAMA2, method: 'qlora', weights: 'bnb-int8', seq: 4096 },
  { model: LLAMA2, method: 'qlora', weights: 'nf4', bnbVersion: 'legacy' },
  { model: LLAMA2, method: 'qlora', weights: 'nf4', bnbCompute: 'bf16', precision: 'bf16', kbitPrep: 'off' },
  { model: LLAMA2, method: 'lora', weights: 'bnb-int8', bnbVersion: 'legacy' },
  { model: 'Qwen/Qwen2.5-0.5B', method: 'lora', weights: 'awq-int4', seq: 512 },
  { model: LLAMA2, method: 'freeze' },
  { model: LLAMA2, gpus: 8, zero: 1 },
  { model: LLAMA2, gpus: 8, zero: 2, dsOverlapComm: 'on' },
  { model: LLAMA2, gpus: 8, zero: 2, offload: 'optimizer' },
  { model: LLAMA2, gpus: 8, zero: 3, gradCkpt: 'full' },
  { model: LLAMA2, gpus: 8, zero: 3, offload: 'params', precision: 'fp32' },
  { model: LLAMA2, gpus: 8, zero: 2, zeroImpl: 'fsdp' },
  { model: LLAMA2, gpus: 8, zero: 3, zeroImpl: 'fsdp', method: 'lora' },
  { model: LLAMA2, gpus: 4 },
  { model: 'meta-llama/Llama-3.1-70B', gpus: 16, tp: 4, pp: 2, zero: 1, gradCkpt: 'full' },
  { model: LLAMA2, method: 'lora', tp: 2, gpus: 2 },
  { model: LLAMA2, optimStep: 'in-backward', optimImpl: 'for-loop' },
  { model: LLAMA2, gradZero: 'zeros', optimizer: 'adafactor' },
  { model: 'meta-llama/Llama-3.1-8B', lossChunks: 8, compile: 'inductor', gradCkpt: 'full', actOffload: 'cpu' },
  { model: 'meta-llama/Llama-3.1-8B', logitsPath: 'torchtune', actOffload: 'cpu' },
  { model: 'Qwen/Qwen2.5-7B', logitsPath: 'remote-code', lossChunks: 4 },
  { model: 'mistralai/Mixtral-8x7B-v0.1', method: 'lora', gpus: 8, zero: 3 },
  { model: 'google-bert/bert-base-uncased', seq: 512, batch: 8 },
  // gelu_new, composed in Python (training/act-saves.ts); under LoRA too
  { model: 'openai-community/gpt2', seq: 1024, batch: 8 },
  { model: 'openai-community/gpt2', method: 'lora', seq: 1024, batch: 8 },
  // bf16 weights under the Trainer's autocast: LayerNorm saves an fp32 cast of its input
  { model: 'openai-community/gpt2', precision: 'bf16', weights: 'bf16', seq: 1024, batch: 8 },
  { model: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B', method: 'qlora', weights: 'nf4', precision: 'bf16' },
  { model: 'google-t5/t5-base', seq: 512 },
  { model: '', params: 7e9, method: 'lora' },
  // q / k RMSNorms (Qwen3), GemmaRMSNorm's fp32 x̂ (Gemma-2 in bf16)
  { model: 'Qwen/Qwen3-8B', precision: 'bf16', seq: 1024 },
  { model: 'Qwen/Qwen3-8B', method: 'lora', seq: 1024 },
  { model: 'google/gemma-2-2b', precision: 'bf16', seq: 1024 },
  // v saved as a slice of Phi-3's fused qkv output
  { model: 'microsoft/Phi-3-mini-4k-instruct', precision: 'bf16', seq: 1024 },
  { model: 'microsoft/Phi-3-mini-4k-instruct', method: 'lora', seq: 1024 },
  // the remote files' old RMSNorm (16-bit input kept; ChatGLM's fp32 x̂), InternLM's eager-only training
  { model: 'THUDM/chatglm3-6b', precision: 'bf16', seq: 1024 },
  { model: 'THUDM/chatglm3-6b', method: 'lora', seq: 1024 },
  // Qwen-1's own loss (remote-code: 16-bit logits and shift copy, autocast's fp32 log-softmax)
  { model: 'Qwen/Qwen-7B', method: 'lora', seq: 1024 },
  // SDPA's math kernel (multi-query Falcon) and Falcon's own 16-bit eager softmax
  { model: 'tiiuae/falcon-7b', method: 'lora', seq: 1024 },
  { model: 'tiiuae/falcon-7b', precision: 'bf16', attn: 'eager', seq: 1024 },
  // GPT-J's fp32 q and k (EleutherAI/gpt-j-6b config.json; no SDPA path: attn=sdpa runs eager)
  { ...custom({ model_type: 'gptj', n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64, vocab_size: 50400 }), seq: 1024 },
];
