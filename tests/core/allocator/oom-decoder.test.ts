// OOM messages of every release, built from the templates of docs/reference/allocator.md §7.2 with realistic
// figures, plus hand-written log excerpts in the shapes §7.2–§7.3 describe.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { decodeOom, type DecodedOom } from '../../../src/core/allocator/oom-decoder';
import { formatOomMessage, oomExceptionName, OOM_VERSIONS } from '../../../src/core/allocator/oom-message';
import type { OomFacts } from '../../../src/core/allocator/allocator';
import { GiB, MiB } from '../../../src/core/units';

const decoded = (text: string): DecodedOom => {
  const r = decodeOom(text);
  if (!r.found) throw new Error('not found');
  return r.oom;
};
const val = (o: DecodedOom, key: string) => o.fields.find((f) => f.key === key)?.value;

// A 24 GiB card: 22.5 GiB allocated, 1 GiB cached holes, 300 MiB of CUDA context.
const facts: OomFacts = {
  overOneEiB: false,
  requested: 2 * GiB,
  allocSize: 2 * GiB,
  total: 24 * GiB,
  free: 24 * GiB - 23.5 * GiB - 300 * MiB,
  allocated: 22.5 * GiB,
  reserved: 23.5 * GiB,
  allowed: null,
  processInUse: 23.5 * GiB + 300 * MiB,
};
const ctx = { device: 1, nvml: true, privatePools: 0 };

describe('every template round-trips through the decoder', () => {
  const expectedVersion: Record<string, string> = {
    '1.9': 'version.le-1.9',
    '2.0': 'version.1.10-2.0',
    '2.1': 'version.2.1',
    '2.2': 'version.2.2-2.7',
    '2.4': 'version.2.2-2.7',
    '2.8': 'version.ge-2.8',
  };
  for (const v of OOM_VERSIONS) {
    it(`PyTorch ${v}`, () => {
      const text = `Traceback (most recent call last):\n  File "train.py", line 3\n${oomExceptionName(v)}: ${formatOomMessage(v, facts, ctx)}\n`;
      const o = decoded(text);
      expect(o.complete).toBe(true);
      expect(o.format).toBe(v === '1.9' || v === '2.0' ? 'old' : 'new');
      expect(o.version.code).toBe(expectedVersion[v]);
      expect(o.exception).toBe(oomExceptionName(v));
      expect(val(o, 'requested')).toBe(2 * GiB);
      expect(val(o, 'device')).toBe(1);
      expect(val(o, 'total')).toBe(24 * GiB);
      expect(o.derived.reserved).toBeCloseTo(23.5 * GiB, -8);
      expect(o.derived.unallocated).toBeCloseTo(GiB, -8);
      if (v !== '1.9' && v !== '2.0') expect(o.derived.nonPyTorch).toBeCloseTo(300 * MiB, -8);
      // 1 GiB cached + 200 MiB free < 2 GiB asked: a real shortage of ~0.8 GiB.
      expect(o.diagnosis?.code).toBe('real-shortage');
      expect(o.diagnosis?.shortBytes).toBeCloseTo(2 * GiB - GiB - 200 * MiB, -8);
      expect(o.raw.startsWith('CUDA out of memory. Tried to allocate 2.00 GiB')).toBe(true);
    });
  }
  it('2.4 with CUDA-graph pools: A′ = A + P and the unallocated figure is R − A − P', () => {
    const o = decoded(formatOomMessage('2.4', facts, { ...ctx, privatePools: 512 * MiB }));
    expect(o.version.code).toBe('version.ge-2.4');
    expect(val(o, 'privatePools')).toBe(512 * MiB);
    expect(val(o, 'allocated')).toBe(22.5 * GiB + 512 * MiB);
    expect(val(o, 'unallocated')).toBe(GiB - 512 * MiB);
  });
  it('allowed clause (set_per_process_memory_fraction) in old and new forms', () => {
    const f = { ...facts, allowed: 12 * GiB };
    for (const v of ['2.0', '2.2'] as const) {
      const o = decoded(formatOomMessage(v, f, ctx));
      expect(val(o, 'allowed')).toBe(12 * GiB);
    }
  });
});

describe('hand-written log excerpts', () => {
  it('2.1 in a container: "capacty", only a Process line, fragmentation hint', () => {
    const o = decoded(
      'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacty of 14.75 GiB of which 3.06 MiB is free. Process 12345 has 14.74 GiB memory in use. Of the allocated memory 14.56 GiB is allocated by PyTorch, and 53.02 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF',
    );
    expect(o.version.code).toBe('version.2.1');
    expect(o.derived.assumedSelfPid).toBe(12345);
    expect(o.derived.request?.pool).toBe('large');
    expect(o.derived.request?.message.code).toBe('request.large-buffer');
    expect(o.diagnosis?.code).toBe('fragmentation');
    // 20 MiB < 32 MiB: max_split_size_mb cannot make it oversize; 53 + 3 MiB ≥ 2 × 20 MiB: no batch advice.
    expect(o.diagnosis?.advice.map((a) => a.code)).toEqual(['expandable-segments']);
  });

  it('2.2 with another process holding most of the card', () => {
    const o = decoded(
      'OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.06 GiB is free. Process 4242 has 10.00 GiB memory in use. Including non-PyTorch memory, this process has 12.58 GiB memory in use. Of the allocated memory 11.90 GiB is allocated by PyTorch, and 200.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)',
    );
    expect(o.exception).toBe('OutOfMemoryError');
    expect(o.processes).toEqual([{ pid: 4242, bytes: 10 * GiB }]);
    expect(o.derived.otherProcesses).toBeCloseTo(23.65 * GiB - 1.06 * GiB - 12.58 * GiB, -7);
    expect(o.diagnosis?.code).toBe('other-process');
    expect(o.diagnosis?.advice.map((a) => a.code)).toEqual(['free-other-process', 'empty-cache-elsewhere']);
  });

  it('ROCm: HIP out of memory, no NVML sentence, HIP env name in advice', () => {
    const o = decoded(
      'torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 63.98 GiB of which 1.23 GiB is free. Of the allocated memory 59.00 GiB is allocated by PyTorch, and 3.60 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)',
    );
    expect(o.backend).toBe('hip');
    expect(o.diagnosis?.code).toBe('fragmentation');
    expect(o.diagnosis?.advice[0].params.env).toBe('PYTORCH_HIP_ALLOC_CONF');
    expect(o.diagnosis?.advice[1]).toMatchObject({ code: 'max-split-size', params: { mb: 2048 } });
  });

  it('old RuntimeError without tail (≤ 1.9)', () => {
    const o = decoded(
      'RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 10.76 GiB total capacity; 6.33 GiB already allocated; 1.09 GiB free; 8.40 GiB reserved in total by PyTorch)',
    );
    expect(o.version.code).toBe('version.le-1.9');
    expect(o.exception).toBe('RuntimeError');
    expect(o.derived.unallocated).toBeCloseTo((8.4 - 6.33) * GiB, -7);
    expect(o.diagnosis?.code).toBe('fragmentation');
  });

  it('an edited old message with reserved below allocated gives no negative unallocated (fuzz seed 1974868813)', () => {
    const o = decoded(
      'RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 10.76 GiB total capacity; 23.32 GiB already allocated; 1.09 GiB free; 0.98 GiB reserved in total by PyTorch)',
    );
    expect(o.derived.unallocated).toBe(0);
  });

  it('wrapped mid-word at 60 columns, ANSI colours, tracebacks around it', () => {
    const msg = formatOomMessage('2.2', facts, ctx);
    const wrapped = msg.match(/.{1,60}/g)?.join('\n') ?? '';
    const o = decoded(`\x1b[1;31mERROR\x1b[0m step 12\nTraceback...\n\x1b[31mtorch.OutOfMemoryError\x1b[0m: ${wrapped}\n\nDuring handling...`);
    expect(o.complete).toBe(true);
    expect(o.exception).toBe('torch.OutOfMemoryError');
    expect(Math.abs((val(o, 'thisProcess') ?? 0) - facts.processInUse)).toBeLessThanOrEqual(0.005 * GiB);
  });

  it('1 EiB guard, driver error, several ranks', () => {
    expect(decoded('RuntimeError: CUDA out of memory. Tried to allocate more than 1EB memory.').kind).toBe('over-1eb');
    expect(decoded('RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported').kind).toBe('driver');
    const one = formatOomMessage('2.2', facts, ctx);
    const r = decodeOom(`[rank0]: torch.OutOfMemoryError: ${one}\n[rank1]: torch.OutOfMemoryError: ${one}\n`);
    expect(r.found && r.others.length).toBe(1);
  });

  it('a truncated message still yields what it has', () => {
    const o = decoded('CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 7.79 GiB of which 1.44 MiB is free.');
    expect(o.complete).toBe(false);
    expect(o.derived.request?.message.code).toBe('request.small');
    expect(o.diagnosis).toBeNull();
  });

  it('main (2026): no expandable sentence when it is already on', () => {
    const msg = formatOomMessage('2.2', facts, ctx).replace(/ If reserved but unallocated memory is large.*to avoid fragmentation\./, '');
    expect(decoded(msg).version.code).toBe('version.main');
  });

  it('memory-fraction limit: the card has room, the allowed share does not', () => {
    // 40 GiB card, fraction 0.5 → 20 GiB allowed; 19.5 GiB reserved; 2 GiB asked; 20 GiB free.
    const f = { ...facts, total: 40 * GiB, reserved: 19.5 * GiB, allocated: 19.4 * GiB, free: 20 * GiB, allowed: 20 * GiB, processInUse: 19.8 * GiB };
    const o = decoded(formatOomMessage('2.2', f, ctx));
    expect(o.diagnosis?.code).toBe('fraction-limit');
    expect(o.diagnosis?.advice[0]).toMatchObject({ code: 'raise-memory-fraction', params: { allowed: 20 * GiB } });
  });

  it('non-OOM text says so with an example', () => {
    const r = decodeOom('Epoch 3: loss 0.12\nall good');
    expect(r.found).toBe(false);
    if (!r.found) {
      expect(r.message.code).toBe('oom-not-found');
      expect(r.example).toContain('CUDA out of memory. Tried to allocate');
    }
  });
});

describe('a real out-of-memory message (torch 2.11 on an H200, tests/fixtures/torch-snapshot/oom-torch-2.11.txt)', () => {
  // written by tools/measure/record_snapshot.py: torch.empty(total_memory + 1 GiB) after four training steps
  const text = readFileSync(new URL('../../fixtures/torch-snapshot/oom-torch-2.11.txt', import.meta.url), 'utf8');
  const stats = JSON.parse(readFileSync(new URL('../../fixtures/torch-snapshot/train-varied.default.stats.json', import.meta.url), 'utf8')) as {
    memory_stats_after_oom: Record<string, number>;
  };
  const d = decoded(text);
  const field = (key: string) => d.fields.find((f) => f.key === key)!;

  it('is read as the ≥ 2.8 wording with every field', () => {
    expect(d.complete).toBe(true);
    expect(d.version.code).toBe('version.ge-2.8');
    expect(field('requested').text).toBe('140.80 GiB');
    expect(field('total').text).toBe('139.80 GiB');
  });

  it("its figures agree with the allocator's own statistics at the moment of the error, within the printed rounding", () => {
    const real = stats.memory_stats_after_oom;
    const allocated = field('allocated');
    const unallocated = field('unallocated');
    expect(Math.abs(allocated.value - real['allocated_bytes.all.current'])).toBeLessThanOrEqual(allocated.precision);
    expect(Math.abs(unallocated.value - (real['reserved_bytes.all.current'] - real['allocated_bytes.all.current']))).toBeLessThanOrEqual(unallocated.precision);
    expect(real.num_ooms).toBe(1);
  });
});
