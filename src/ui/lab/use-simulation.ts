/**
 * Runs the lab's simulation and answers what the panel shows (sim-engine.ts): on the page for
 * short hand-typed traces, in a module Web Worker (sim.worker.ts) for imports and long traces so the
 * page never waits on a 10^5-event run. Requests carry ids; an answer to anything but the latest
 * request of its kind, or to an earlier run, is dropped. A new run while the worker is busy ends that
 * worker and starts a fresh one rather than waiting for a run nobody will see. Answers render as
 * transitions, so React draws the charts of a long run in slices and the page keeps answering.
 */
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import type { PackedTrace } from '../../core/allocator/trace-pack';
import { createSimEngine, resultOf, type CompareColumn, type LoadResult, type SimRequest, type SimResponse, type StepResult } from './sim-engine';

/** Hand-typed traces up to this many events simulate on the page (a few ms); longer ones off it. */
export const PAGE_EVENTS = 5000;

export interface SimulationInput {
  trace: PackedTrace | null;
  capacity: number | undefined;
  conf: string | undefined;
  /** −1 before the first event, null the last */
  step: number | null;
  /** settings to compare, or null to skip the comparison */
  compare: readonly string[] | null;
  /** simulate in the worker (falls back to the page where there is no Worker) */
  offThread: boolean;
}

export interface Simulation {
  load: LoadResult | null;
  view: StepResult | null;
  compare: CompareColumn[] | null;
  /** what the worker is doing, for the live region */
  busy: 'load' | 'compare' | null;
  /** the worker died (out of memory?): shown instead of the run */
  failed: boolean;
}

export const workersAvailable = (): boolean => typeof Worker !== 'undefined';

export function useSimulation(input: SimulationInput): Simulation {
  const offThread = input.offThread && workersAvailable();
  const page = usePageSimulation(offThread ? { ...input, trace: null } : input);
  const worker = useWorkerSimulation(offThread ? input : { ...input, trace: null });
  return offThread ? worker : page;
}

const compareKey = (c: readonly string[] | null) => (c ? JSON.stringify(c) : null);

function usePageSimulation({ trace, capacity, conf, step, compare }: SimulationInput): Simulation {
  const engine = useMemo(() => createSimEngine(), []);
  const key = compareKey(compare);
  const load = useMemo(() => (trace ? resultOf(engine.handle({ kind: 'load', trace, capacity, conf }), 'load') : null), [engine, trace, capacity, conf]);
  const view = useMemo(() => (load?.ok ? resultOf(engine.handle({ kind: 'step', step }), 'step') : null), [engine, load, step]);
  const cmp = useMemo(() => (load?.ok && key ? resultOf(engine.handle({ kind: 'compare', confs: JSON.parse(key) as string[] }), 'compare') : null), [engine, load, key]);
  return { load, view, compare: cmp, busy: null, failed: false };
}

interface Channel {
  worker: Worker;
  pending: Map<number, (res: SimResponse) => void>;
}

function useWorkerSimulation({ trace, capacity, conf, step, compare }: SimulationInput): Simulation {
  const [load, setLoad] = useState<{ gen: number; result: LoadResult } | null>(null);
  const [view, setView] = useState<StepResult | null>(null);
  const [cmp, setCmp] = useState<CompareColumn[] | null>(null);
  const [busy, setBusy] = useState<Simulation['busy']>(null);
  const [failed, setFailed] = useState(false);
  const channel = useRef<Channel | null>(null);
  const ids = useRef({ next: 0, gen: 0, step: 0, compare: 0 });
  const key = compareKey(compare);

  const stop = () => {
    channel.current?.worker.terminate();
    channel.current = null;
  };
  const post = (req: SimRequest, onRes: (res: SimResponse) => void): number => {
    let ch = channel.current;
    if (!ch) {
      const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
      const made: Channel = { worker, pending: new Map() };
      worker.onmessage = (e: MessageEvent<{ id: number; res?: SimResponse; error?: string }>) => {
        const done = made.pending.get(e.data.id);
        made.pending.delete(e.data.id);
        if (e.data.res && done) done(e.data.res);
        else if (e.data.error !== undefined) fail();
      };
      // a worker that dies (out of memory on a huge trace) says nothing more: name it
      worker.onerror = (e) => {
        e.preventDefault();
        fail();
      };
      channel.current = ch = made;
    }
    const id = ++ids.current.next;
    ch.pending.set(id, onRes);
    ch.worker.postMessage({ id, req });
    return id;
  };
  const fail = () => {
    stop();
    ids.current.gen++;
    setLoad(null);
    setBusy(null);
    setFailed(true);
  };

  useEffect(() => stop, []);

  useEffect(() => {
    const gen = ++ids.current.gen;
    // the worker is still on an earlier run or comparison nobody will see: start a fresh one
    if (channel.current && channel.current.pending.size > 0) stop();
    setLoad(null);
    setView(null);
    setCmp(null);
    setFailed(false);
    if (!trace) {
      stop();
      setBusy(null);
      return;
    }
    setBusy('load');
    post({ kind: 'load', trace, capacity, conf }, (res) => {
      if (gen !== ids.current.gen) return;
      startTransition(() => {
        setLoad({ gen, result: resultOf(res, 'load') });
        setBusy(null);
      });
    });
    // post and stop only touch refs and setters
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [trace, capacity, conf]);

  useEffect(() => {
    if (!load?.result.ok) return;
    const gen = load.gen;
    const id = post({ kind: 'step', step }, (res) => {
      if (gen === ids.current.gen && id === ids.current.step) startTransition(() => setView(resultOf(res, 'step')));
    });
    ids.current.step = id;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load, step]);

  useEffect(() => {
    if (!load?.result.ok || !key) {
      setCmp(null);
      setBusy((b) => (b === 'compare' ? null : b));
      return;
    }
    const gen = load.gen;
    setBusy('compare');
    const id = post({ kind: 'compare', confs: JSON.parse(key) as string[] }, (res) => {
      if (gen !== ids.current.gen || id !== ids.current.compare) return;
      startTransition(() => {
        setCmp(resultOf(res, 'compare'));
        setBusy(null);
      });
    });
    ids.current.compare = id;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load, key]);

  return { load: load?.result ?? null, view, compare: cmp, busy, failed };
}
