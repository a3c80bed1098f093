// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { initialData, useApp } from '../../src/state/store';
import { passThrough, queryOf, readUrl, shareLink, syncUrl } from '../../src/ui/shell/url-sync';

afterEach(() => useApp.setState(initialData()));

describe('URL <-> store', () => {
  test('a link with columns, GPUs and language opens the same page state', () => {
    const st = useApp.getState();
    st.patch({ batch: 8 });
    st.addScenario();
    st.patch({ mode: 'training', seq: 4096, method: 'lora' });
    st.setGpus(['rtx-4090', '24gib']);
    st.setLang('zh');
    const q = queryOf(useApp.getState());
    const saved = useApp.getState();
    useApp.setState(initialData());
    expect(readUrl(`?${q}`)).toEqual([]);
    const got = useApp.getState();
    expect(got.scenarios).toEqual(saved.scenarios);
    expect(got.gpus).toEqual(['rtx-4090', '24gib']);
    expect(got.lang).toBe('zh');
  });

  test('a broken link opens the defaults and names what it ignored', () => {
    const ignored = readUrl('?v=1&batch=banana&evil=%3Cscript%3E&compare=not-a-gpu');
    const s = useApp.getState();
    expect(s.scenarios[0].batch).toBe(1);
    expect(ignored.join(' ')).toContain('evil');
    expect(ignored.join(' ')).toContain('batch');
    expect(s.notices).toHaveLength(1);
    expect(s.notices[0].key).toBe('notice.urlIgnored');
  });

  test('syncing replaces the entry (no new history), keeps other views\u2019 pairs, and stops on unsubscribe', async () => {
    history.replaceState(null, '', '/app/?lab.preset=classic&net.x=1&batch=3');
    const before = history.length;
    expect(passThrough(location.search)).toEqual(['lab.preset=classic', 'net.x=1']);
    const stop = syncUrl(0);
    useApp.getState().set('batch', 5);
    useApp.getState().set('batch', 6);
    await new Promise((r) => setTimeout(r, 20));
    expect(history.length).toBe(before);
    expect(location.search).toContain('batch=6');
    expect(location.search).toContain('lab.preset=classic');
    expect(location.search).toContain('net.x=1');
    expect(shareLink()).toContain('batch=6');
    stop();
    useApp.getState().set('batch', 7);
    await new Promise((r) => setTimeout(r, 20));
    expect(location.search).toContain('batch=6');
  });
});
