import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { topUserFrame } from '../../../src/core/allocator/frames';
import { unpickle } from '../../../src/core/snapshot/pickle';

const frame = (filename: string, line: number, name: string) => ({ filename, line, name });

describe('the top user frame of a recorded stack', () => {
  test('a real H200 snapshot: the first frame outside torch/ is the model code that asked', () => {
    // tests/fixtures/torch-snapshot (torch 2.11): a Linear weight made inside LlamaMLP.__init__
    const bytes = gunzipSync(readFileSync(new URL('../../fixtures/torch-snapshot/train-varied.pickle.gz', import.meta.url)));
    const p = unpickle(new Uint8Array(bytes));
    if (!p.ok) throw new Error(p.error.text);
    const entries = (p.value as { device_traces: { action: string; frames: unknown }[][] }).device_traces[0];
    const entry = entries[5];
    expect(entry.action).toBe('alloc');
    // its stack, innermost first: torch/utils/_device.py, torch/nn/modules/linear.py, then transformers' modeling_llama.py:233
    // (all under /opt/torch/.venv: a directory named torch that is not PyTorch's package)
    expect(topUserFrame(entry.frames)).toBe('modeling_llama.py:233 __init__');
  });

  test('PyTorch frames and C++ frames are passed over; Windows paths count too', () => {
    const frames = [
      frame('/usr/lib/python3.12/site-packages/torch/nn/functional.py', 2, 'linear'),
      frame('/pytorch/c10/cuda/CUDACachingAllocator.cpp', 9, 'malloc'),
      frame('C:\\work\\train.py', 42, 'step'),
    ];
    expect(topUserFrame(frames)).toBe('train.py:42 step');
  });

  test('a stack all inside PyTorch names its innermost frame; no stack names nothing', () => {
    expect(topUserFrame([frame('/v/site-packages/torch/optim/adam.py', 7, '_init_group'), frame('/src/pytorch/torch/optim/optimizer.py', 3, 'wrapper')])).toBe('adam.py:7 _init_group');
    expect(topUserFrame([])).toBeNull();
    expect(topUserFrame(undefined)).toBeNull();
    expect(topUserFrame([{ line: 1 }, 'text', null])).toBeNull();
  });
});
