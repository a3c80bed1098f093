/**
 * Which estimates take their reserved memory from the step replay (core/timeline) rather than the
 * closed form's segment rounding. Kept apart from the replay itself so the page can decide without
 * loading it.
 * - varied sample lengths: always (the cache keeps segments cut for earlier shapes);
 * - fixed lengths: one process training on its GPU without ZeRO, tensor / pipeline parallelism,
 *   a device_map split or activation offloading — the settings whose allocation order the replay
 *   follows (the consistency test in tests/core/timeline). There the replay of two steps catches
 *   what the closed form cannot: blocks freed in one phase that are too small for the next (the
 *   16-bit logits' segment under the fp32 loss gradients). On our H200 runs
 *   (validation/fixtures/measured-gpu.json) it gives fixed-length reserved within −5 % … +5 %,
 *   where segment rounding alone was −17 % … +4 %.
 * - HF transformers `generate` on one GPU with SDPA or eager attention and 16-bit weights and cache (or a
 *   model that runs its own file, which decides its attention and cache): the settings
 *   under which the replay lays the prompt pass out tensor by tensor (inference/hf-prefill.ts,
 *   hf-prefill-gemma2.ts; the replay keeps the closed form where the model's forward is neither
 *   the Llama one, Phi-3's nor Gemma-2's, except passes that materialise their scores (eager, SDPA's
 *   math kernel), replayed one block per layer with the score tensors at their own size: our runs
 *   of Falcon-7B, eager n007 −0.0 % and SDPA n002 −0.0 %, where segment rounding gave +1.0 % and −1.1 %; Phi-3-mini at 2,048 tokens, SDPA and eager (n000, n001), 0.0 %, where segment
 *   rounding gave −3.2 % and −5.5 %). On our H200 generate runs
 *   (validation/fixtures/measured-generate.json) the 32k-token prompts of the untied 7–8B models
 *   land within −0.2 % … +1.4 %, where segment rounding gave −7 % … −2 %; Gemma-2-2b's three rows
 *   within −1.0 % … 0 %, where segment rounding gave −7.4 % … −2.6 %. Eager prompt passes
 *   (hf-prefill.ts `eagerCall`, validation/fixtures/measured-remote.json): Llama-3.2-1B at 4,096
 *   tokens +0.4 % (bf16) and +0.6 % (fp16), Qwen2.5-1.5B at 2,048 0.0 % (−4.8 % until the probabilities were held through the MLP), where segment rounding gave
 *   −12.6 %, −1.5 % and −6.4 %. The remote-code chat models'
 *   own loop (inference/remote-runtime.ts: tuple caches, Baichuan-13B's per-step mask growing as k²):
 *   the prompt passes of ChatGLM2/3, Baichuan-13B and Qwen-1 (SDPA, or its own 8-bit cache) laid out
 *   tensor by tensor whatever the attn key says (inference/remote-prefill.ts, remote-runtime.ts
 *   `laidOut`), the other files one block per layer (eager score tensors at their own size). On
 *   our H200 runs of Qwen-7B, ChatGLM3-6B and Baichuan2-13B (validation/fixtures/measured-remote.json)
 *   that gives reserved −0.5 … +2.6 % (one block per layer: −6.0 … +4.8 %), where segment rounding
 *   gave −6.8 … −0.3 % and −24.6 % for Baichuan2-13B decoding after 4,000 tokens.
 */
import type { Scenario } from '../types';
import { findPreset } from '../model/presets';
import { followsOwnFile } from '../inference/remote-provider';

export function replayDecidesReserved(s: Scenario): boolean {
  if (s.mode === 'inference') return generateInOrder(s);
  if (s.mode !== 'training') return false;
  if (s.lengths === 'varied') return true;
  return s.zero === 0 && s.tp === 1 && s.pp === 1 && s.split === 'none' && s.actOffload === 'none';
}

/**
 * The scenario settings inference/transformers.ts requires for the tensor-by-tensor prompt pass:
 * transformers' own code under SDPA or eager with a 16-bit cache; a model that runs its own file
 * whatever the attn and kv keys say, since its file decides both (remote-runtime.ts: its tuple cache
 * is replayed, its prompt pass laid out where remote-prefill.ts has it, else one block per layer).
 */
function generateInOrder(s: Scenario): boolean {
  const sixteen = (f: string) => f === 'bf16' || f === 'fp16';
  if (s.engine !== 'transformers' || !sixteen(s.weights) || s.tp !== 1 || s.pp !== 1 || s.split !== 'none') return false;
  if (followsOwnFile(s, s.arch?.family ?? findPreset(s.model)?.arch.family)) return true;
  return (s.attn === 'sdpa' || s.attn === 'eager') && sixteen(s.kv);
}
