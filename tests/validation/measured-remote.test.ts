/**
 * Our H200 runs of the remote-code chat models and of the transformers-native scenarios
 * measured-generate.json lacks (src/validation/fixtures/measured-remote.json,
 * tools/measure/measure_remote.py): every row mapped (src/validation/measured-remote.ts) and scored
 * on peak allocated and peak reserved. Prints the table.
 */
import { describe, expect, it } from 'vitest';
import { NATIVE_ROWS, REMOTE_ROWS, TRAIN_ROWS, scoreNativeRows, scoreRemoteRows, scoreTrainRows } from '../../src/validation/measured-remote';
import { loggedStats, peakTable } from './peak-table';

const remote = scoreRemoteRows();
const native = scoreNativeRows();
const all = [
  ...remote.map((s) => ({ ...s, measured: s.row.measured, label: `${s.row.settings.model} | ${s.row.settings.prompt} + ${s.row.settings.gen}` })),
  ...native.map((s) => ({ ...s, measured: s.row.measured, label: `${s.row.settings.preset} ${s.row.settings.attn} ${s.row.settings.dtype} | ${s.row.settings.prompt} + ${s.row.settings.gen}` })),
];

describe('our H200 runs of remote-code models and of eager / Phi-3 / Falcon generate()', () => {
  it('maps every row and prints allocated / reserved, measured vs ours', () => {
    console.log(peakTable('model | prompt + gen', all));
    expect([REMOTE_ROWS.length, NATIVE_ROWS.length]).toEqual([10, 8]);
    expect([remote.length, native.length]).toEqual([10, 8]);
  });

  // Falcon-7B eager was +3.5 % under the common eager rule (an fp32 softmax) until its own path was
  // read: softmax in bf16, and FalconModel.forward's `outputs` holding the previous block's probabilities
  it('allocated: median |error| ≤ 0.5 %, every row within 1 %', () => {
    const st = loggedStats(
      'allocated',
      all.map((s) => s.allocatedErrPct),
    );
    expect(st.medianPct).toBeLessThanOrEqual(0.5);
    for (const s of all) expect(Math.abs(s.allocatedErrPct), s.id).toBeLessThanOrEqual(1);
  });

  // Reserved: the prompt passes of ChatGLM3, Baichuan2-13B and Qwen-7B under SDPA are laid out tensor
  // by tensor as their files make them (inference/remote-prefill.ts; one block per layer left them at
  // −6.0 … −0.3 %, r003 −5.95 %; Qwen-7B's 8-bit cache, r005, −4.0 % where its eager `_attn` took the
  // closed form's segment rounding); the Llama-style eager prompt passes are laid out tensor by tensor
  // (hf-prefill.ts eagerCall: Llama-3.2-1B at 4,096 tokens was −13 % under segment rounding);
  // Falcon's eager prompt pass is replayed one block per layer with its four score tensors at their
  // own size (+1.0 % under segment rounding, −0.0 % replayed); Phi-3's is laid out too (fused qkv and
  // gate_up: −3.2 / −4.5 % under segment rounding, 0.0 % laid out). Baichuan2-13B decoding after 4,000 tokens makes a
  // [1, 40, k, k] mask of a new size every step: the real allocator cut a new segment for it every
  // ~3 steps (10 of 1,222–1,240 MiB in the recorded history), because the prompt pass's score
  // tensors left segments of exactly their own size (+4.8 %; one block per layer gave −19.6 %; its
  // mask chain laid out at each step's length, +2.6 %).
  it('reserved: median |error| ≤ 1 %, every row within 3 %', () => {
    const st = loggedStats(
      'reserved',
      all.map((s) => s.reservedErrPct),
    );
    expect(st.medianPct).toBeLessThanOrEqual(1);
    for (const s of all) expect(Math.abs(s.reservedErrPct), s.id).toBeLessThanOrEqual(3);
  });
  it('remote prompt passes laid out (ChatGLM3, Baichuan2-13B, Qwen-7B with its 16-bit and its 8-bit cache): reserved within 1 %, Qwen’s 8-bit cache and the decode rows of Baichuan’s growing mask within 3 %', () => {
    for (const id of ['r000', 'r001', 'r002', 'r003', 'r004', 'r007', 'r008', 'r009']) expect(Math.abs(remote.find((s) => s.id === id)!.reservedErrPct), id).toBeLessThanOrEqual(1);
    for (const id of ['r005', 'r006']) expect(Math.abs(remote.find((s) => s.id === id)!.reservedErrPct), id).toBeLessThanOrEqual(3);
  });
  // n007 (Falcon-7B eager) was +1.0 % under segment rounding; n004 (Qwen2.5-1.5B eager) −4.8 % until the
  // replayed layer kept its probabilities, bound to `_`, through the MLP
  it('prompt passes replayed as the code holds their tensors: Falcon-7B eager (n007), Qwen2.5-1.5B eager (n004), Phi-3-mini SDPA and eager (n000, n001) reserved within 1 %', () => {
    for (const id of ['n007', 'n004', 'n000', 'n001']) expect(Math.abs(native.find((s) => s.id === id)!.reservedErrPct), id).toBeLessThanOrEqual(1);
  });
});

describe('our H200 Trainer runs of the remote-code models (LoRA l000–l003, full fine-tuning l004)', () => {
  const train = scoreTrainRows();
  it('maps every row and prints allocated / reserved, measured vs ours', () => {
    console.log(
      peakTable(
        'model | seq',
        train.map((s) => ({ ...s, measured: s.row.measured, label: `${s.row.settings.preset} | ${s.row.settings.seq}` })),
      ),
    );
    expect([TRAIN_ROWS.length, train.length]).toEqual([5, 5]);
  });
  // Before → after the rules read from the files: ChatGLM3 −3.1 % / −4.6 % until its RMSNorm was read
  // (it keeps its 16-bit input for the rsqrt mul's backward: activations.ts normInputBytes);
  // Baichuan2-13B +22.7 % before its always-on checkpointing, then −4.8 % until NormHead's fp32
  // normalised weight under autocast and its ALiBi mask were counted (terms.ts headLoss,
  // attentionMask); ChatGLM's own loss (loss.ts chatglmLossBytes) moved l000 / l003 from −0.8 / −0.3 %
  // to −0.1 / +0.9 %. l004 (ChatGLM3-6B full fine-tuning, measured after the rule for the fp32 x̂
  // its trained RMSNorm weights keep was written) came out −0.25 %. PEFT's all-linear also adapts ChatGLM's output_layer (its file names no output
  // embeddings for PEFT to leave out: 1,105,920 trainable parameters not counted).
  it('allocated: every row within −1.5 % … +1 %', () => {
    for (const s of train) expect(s.allocatedErrPct, s.id).toBeGreaterThanOrEqual(-1.5);
    for (const s of train) expect(s.allocatedErrPct, s.id).toBeLessThanOrEqual(1);
  });
  // reserved within −7.6 … +5.0 % until the loss was replayed tensor by tensor (loss.ts `sequence`)
  it('reserved: every LoRA row within 3 %', () => {
    for (const s of train.filter((x) => x.row.settings.method === 'lora')) expect(Math.abs(s.reservedErrPct), s.id).toBeLessThanOrEqual(3);
  });
  // a known miss: ChatGLM's full fine-tune is not laid out tensor by tensor (full-forward.ts lays out
  // Llama-style families), so its segments are approximated: +3.3 % reserved on 2026-11-28
  it('reserved: the full fine-tune (l004) within 4 %', () => {
    expect(Math.abs(train.find((x) => x.id === 'l004')!.reservedErrPct)).toBeLessThanOrEqual(4);
  });
});
