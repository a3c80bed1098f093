import { afterEach, describe, expect, test } from 'vitest';
import { initialData, MAX_SCENARIOS, useApp } from '../../src/state/store';
import { DEFAULT_SCENARIO } from '../../src/core/scenario/schema';

afterEach(() => useApp.setState(initialData()));

describe('store', () => {
  test('starts from the schema defaults, one scenario, on the default GPU', () => {
    const s = useApp.getState();
    // issue 12: a fresh page opens with a GeForce RTX 4090 chosen; every other key is the schema default
    expect(s.scenarios).toEqual([{ ...DEFAULT_SCENARIO, loraTargets: [...DEFAULT_SCENARIO.loraTargets], gpu: 'rtx-4090' }]);
    expect(s.gpus).toEqual(['rtx-4090']);
    expect(s.active).toBe(0);
    expect(s.lang).toBe('en');
    expect(s.unit).toBe('GiB');
  });

  test('set and patch change only the active scenario, with a new object', () => {
    const { addScenario, set, patch } = useApp.getState();
    addScenario();
    const before = useApp.getState().scenarios;
    expect(useApp.getState().active).toBe(1);
    set('batch', 8);
    patch({ mode: 'training', seq: 4096 });
    const after = useApp.getState().scenarios;
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]).toMatchObject({ batch: 8, mode: 'training', seq: 4096 });
    expect(after[0].batch).toBe(DEFAULT_SCENARIO.batch);
  });

  test('at most four scenarios; removing keeps the active index valid', () => {
    const st = useApp.getState();
    for (let i = 0; i < 6; i++) st.addScenario();
    expect(useApp.getState().scenarios).toHaveLength(MAX_SCENARIOS);
    expect(MAX_SCENARIOS).toBe(4);
    useApp.getState().setActive(3);
    useApp.getState().removeScenario(3);
    expect(useApp.getState().active).toBe(2);
    useApp.getState().removeScenario(0);
    expect(useApp.getState().active).toBe(1);
    expect(useApp.getState().scenarios).toHaveLength(2);
    useApp.getState().removeScenario(0);
    useApp.getState().removeScenario(0);
    expect(useApp.getState().scenarios).toHaveLength(1);
  });

  test("choosing GPUs dedupes them and makes the first one every scenario's GPU", () => {
    useApp.getState().addScenario();
    useApp.getState().setGpus(['rtx-4090', '24gib', 'rtx-4090']);
    expect(useApp.getState().gpus).toEqual(['rtx-4090', '24gib']);
    expect(useApp.getState().scenarios.map((s) => s.gpu)).toEqual(['rtx-4090', 'rtx-4090']);
    useApp.getState().setGpus([]);
    expect(useApp.getState().scenarios[0].gpu).toBe('');
  });

  test('notices replace one with the same id and can be dismissed', () => {
    const { notify, dismiss } = useApp.getState();
    notify({ id: 'url', key: 'notice.urlIgnored', params: { list: 'a' } });
    notify({ id: 'url', key: 'notice.urlIgnored', params: { list: 'b' } });
    expect(useApp.getState().notices).toEqual([{ id: 'url', key: 'notice.urlIgnored', params: { list: 'b' } }]);
    dismiss('url');
    expect(useApp.getState().notices).toEqual([]);
  });
});
