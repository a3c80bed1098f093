// @vitest-environment happy-dom
/**
 * The worker side of the lab's simulation hook, with a stand-in Worker that answers only when told
 * (so the order of answers is the test's): a new run ends a busy worker, and answers to anything but
 * the latest request are dropped.
 */
import { expect, test } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { findPreset } from '../../../src/core/allocator/presets';
import { parseTrace } from '../../../src/core/allocator/trace';
import { packTrace } from '../../../src/core/allocator/trace-pack';
import { createSimEngine, type SimEngine, type SimRequest } from '../../../src/ui/lab/sim-engine';
import { useSimulation, type SimulationInput } from '../../../src/ui/lab/use-simulation';
import { FakeWorkerBase, installFakeWorkers } from './fake-worker';

const MiB = 2 ** 20;

class FakeWorker extends FakeWorkerBase<{ id: number; req: SimRequest }> {
  private engine: SimEngine = createSimEngine();
  /** Handles every message received so far, in order (as the real worker does), answering in `order`. */
  answer(order: 'fifo' | 'reversed' = 'fifo') {
    const out = this.inbox.map((m) => ({ id: m.id, res: this.engine.handle(m.req) }));
    this.inbox = [];
    for (const data of order === 'fifo' ? out : out.reverse()) act(() => this.onmessage?.({ data }));
  }
}
const made = installFakeWorkers(FakeWorker);

const trace = (() => {
  const p = parseTrace(findPreset('classic')!.text);
  if (!p.ok) throw new Error('preset does not parse');
  return packTrace(p.trace);
})();
const base: SimulationInput = { trace, capacity: undefined, conf: undefined, step: null, compare: null, offThread: true };

test('runs in the worker; a new run ends the busy worker; stale answers are dropped', () => {
  const { result, rerender } = renderHook((input: SimulationInput) => useSimulation(input), { initialProps: base });
  expect(result.current.busy).toBe('load');
  expect(made).toHaveLength(1);
  // the setting changes while the first run is still going: that worker is ended, a fresh one runs
  rerender({ ...base, conf: 'max_split_size_mb:64' });
  expect(made[0].terminated).toBe(true);
  expect(made).toHaveLength(2);
  const w = made[1];
  w.answer();
  expect(result.current.load).toMatchObject({ ok: true, summary: { events: 16, confText: 'max_split_size_mb:64' } });
  expect(result.current.busy).toBeNull();
  // the step request the run's arrival sent (the last step): §9 (i) step C, reserved 104 MiB
  w.answer();
  expect(result.current.view?.step).toBe(15);
  expect(result.current.view?.view.stats['reserved_bytes.all.current']).toBe(104 * MiB);

  // two steps asked quickly, answered in reverse: only the latest (index 9, step A: 40 MiB) is kept
  rerender({ ...base, conf: 'max_split_size_mb:64', step: 14 });
  rerender({ ...base, conf: 'max_split_size_mb:64', step: 9 });
  w.answer('reversed');
  expect(result.current.view?.step).toBe(9);
  expect(result.current.view?.view.stats['reserved_bytes.all.current']).toBe(40 * MiB);
  expect(made).toHaveLength(2);
});

test('the comparison runs in the same worker; a dead worker is named', () => {
  const props: SimulationInput = { ...base, compare: ['', 'expandable_segments:True'] };
  const { result, rerender } = renderHook((input: SimulationInput) => useSimulation(input), { initialProps: props });
  const w = made[0];
  w.answer();
  w.answer();
  expect(result.current.compare?.map((c) => c.row?.peakReserved)).toEqual([104 * MiB, expect.any(Number)]);
  rerender({ ...base, trace: { ...trace, count: trace.count } });
  act(() => made.at(-1)!.onerror?.({ preventDefault: () => undefined }));
  expect(result.current.failed).toBe(true);
  expect(result.current.load).toBeNull();
});

test('short traces off the worker path run on the page, answering at once', () => {
  const { result } = renderHook(() => useSimulation({ ...base, offThread: false, step: 14 }));
  expect(made).toHaveLength(0);
  expect(result.current.view?.view.stats['allocated_bytes.all.current']).toBe(20 * MiB);
});
