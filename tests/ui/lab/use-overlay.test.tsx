// @vitest-environment happy-dom
/**
 * The overlay's prediction off the page's thread (use-overlay.ts), with a stand-in Worker that
 * answers only when told: pending until the worker answers, a change of scenario ends the busy
 * worker and drops its answer, a dead worker is named instead of thrown.
 */
import { expect, test } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Scenario } from '../../../src/core/types';
import { computeOverlay, type OverlayRequest } from '../../../src/ui/lab/overlay-compute';
import { useOverlay } from '../../../src/ui/lab/use-overlay';
import { FakeWorkerBase, installFakeWorkers } from './fake-worker';

const MiB = 2 ** 20;

class FakeWorker extends FakeWorkerBase<OverlayRequest> {
  /** Answers the request as overlay.worker.ts does. */
  answer() {
    const req = this.inbox.shift()!;
    act(() => this.onmessage?.({ data: { done: computeOverlay(structuredClone(req)) } }));
  }
}
const made = installFakeWorkers(FakeWorker);

// a recorded run peaking at 6 MiB allocated and 40 MiB reserved (PyTorch's segment figure)
const recorded = {
  points: [
    { step: 0, allocated: 4 * MiB, reserved: 20 * MiB },
    { step: 1, allocated: 6 * MiB, reserved: 40 * MiB },
    { step: 2, allocated: 4 * MiB, reserved: 20 * MiB },
  ],
  allocatedPeak: 6 * MiB,
  reservedPeak: 40 * MiB,
};
const llama: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-3.2-1B', mode: 'inference', batch: 1, prompt: 128, gen: 8 };

test('off: no worker; on: pending until the worker answers, then the recorded peaks against the prediction', () => {
  const { result, rerender } = renderHook(({ on }: { on: boolean }) => useOverlay(on, llama, recorded), { initialProps: { on: false } });
  expect(result.current.status).toBe('off');
  expect(made).toHaveLength(0);
  rerender({ on: true });
  expect(result.current.status).toBe('pending');
  expect(made).toHaveLength(1);
  made[0].answer();
  const s = result.current;
  if (s.status !== 'done' || !s.result.ok) throw new Error(`expected a comparison, got ${JSON.stringify(s)}`);
  expect(s.result.cmp.reserved.recorded).toBe(40 * MiB);
  expect(s.result.cmp.allocated.recorded).toBe(6 * MiB);
  // a 1B model's bf16 weights alone (2.47 GB) are far above the recorded 40 MiB
  expect(s.result.cmp.reserved.predicted).toBeGreaterThan(2e9);
  expect(made[0].terminated).toBe(true);
});

test('a new scenario while the worker runs ends it; its late answer is dropped; the new one says why it cannot be compared', () => {
  const { result, rerender } = renderHook(({ s }: { s: Scenario }) => useOverlay(true, s, recorded), { initialProps: { s: llama } });
  const first = made[0];
  rerender({ s: { ...llama, engine: 'llama.cpp', weights: 'gguf-q4_k_m' } });
  expect(first.terminated).toBe(true);
  expect(result.current.status).toBe('pending');
  first.answer();
  expect(result.current.status).toBe('pending');
  made[1].answer();
  expect(result.current).toMatchObject({ status: 'done', result: { ok: false, errors: [{ code: 'overlay-not-torch' }] } });
});

test('a worker that dies is named, not thrown', () => {
  const { result } = renderHook(() => useOverlay(true, llama, recorded));
  act(() => made[0].onerror?.({ preventDefault: () => undefined }));
  expect(result.current.status).toBe('failed');
});
