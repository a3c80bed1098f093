import { describe, expect, it } from 'vitest';
import { importMemoryHistory } from '../../../src/core/allocator/history-import';

// Entries shaped like torch.cuda.memory._snapshot()["device_traces"] (TraceEntry dicts).
const sample = {
  total_memory: 17_179_869_184,
  allocator_settings: 'expandable_segments:True',
  device_traces: [
    [
      { action: 'segment_alloc', addr: 139_637_976_727_552, size: 20_971_520, stream: 0 },
      { action: 'alloc', addr: 139_637_976_727_552, size: 4_194_304, stream: 0 },
      { action: 'alloc', addr: 139_637_980_921_856, size: 4_194_304, stream: 0 },
      { action: 'free_requested', addr: 139_637_976_727_552, size: 4_194_304, stream: 0 },
      { action: 'free_completed', addr: 139_637_976_727_552, size: 4_194_304, stream: 0 },
      { action: 'free_completed', addr: 1_000_000, size: 512, stream: 0 },
      { action: 'oom', addr: 0, size: 2_097_152, stream: 0 },
    ],
  ],
};

describe('importMemoryHistory', () => {
  it('turns alloc / free_completed entries into a trace, and the oom entry into the request that failed', () => {
    const r = importMemoryHistory(JSON.stringify(sample));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.trace.settings).toEqual({ capacity: 17_179_869_184, overhead: null, fraction: null, conf: 'expandable_segments:True' });
    expect(r.value.trace.events.map((e) => e.op + (e.op === 'empty_cache' ? '' : ` ${e.name}`))).toEqual(['alloc 0x7f0000000000', 'alloc 0x7f0000400000', 'free 0x7f0000000000', 'alloc oom-6']);
    expect(r.value).toMatchObject({ allocs: 2, frees: 1, unmatchedFrees: 1, recorded: { deviceAllocs: 1, ooms: 1 } });
    expect(r.value.notes.map((n) => n.code)).toEqual(['history-window']);
  });
  it('uses free_requested when a trace has no free_completed', () => {
    const t = {
      device_traces: [
        [
          { action: 'alloc', addr: 4096, size: 100 },
          { action: 'free_requested', addr: 4096, size: 100 },
        ],
      ],
    };
    const r = importMemoryHistory(JSON.stringify(t));
    expect(r.ok && r.value.trace.events.map((e) => e.op)).toEqual(['alloc', 'free']);
  });
  it('names bad input', () => {
    expect(importMemoryHistory('{oops')).toMatchObject({ ok: false, error: { code: 'history-not-json' } });
    expect(importMemoryHistory('{"segments": []}')).toMatchObject({ ok: false, error: { code: 'history-no-traces' } });
    expect(importMemoryHistory('{"device_traces": [[{"action": "alloc", "addr": "x", "size": 1}]]}')).toMatchObject({ ok: false, error: { code: 'history-bad-entry' } });
  });
});
