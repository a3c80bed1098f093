// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { initialData, useApp } from '../../../src/state/store';
import { URL_VERSION } from '../../../src/state/migrations';
import { changeAsNewEntry, queryOf, readUrl, shareLink, syncUrl } from '../../../src/ui/shell/url-sync';
import { decodeUrl } from '../../../src/state/url-codec';
import { serializeScenario } from '../../../src/core/scenario';
import { readLab } from '../../../src/ui/lab/lab-url';
import { readNet } from '../../../src/ui/layers/net-url';
import fixture from '../../state/fixtures/links.v2.json';

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

  test('what the CLI warns about in a link is a notice too: a newer version, tokens beyond the context (Llama-2: 4,096)', () => {
    readUrl('?v=999&model=meta-llama/Llama-2-7b-hf&mode=inference&prompt=8000&gen=1000');
    const warn = useApp.getState().notices.find((n) => n.id === 'url-warn');
    expect(warn?.key).toBe('notice.urlWarnings');
    expect(warn?.params?.list).toContain('v999');
    expect(warn?.params?.list).toContain("9000 tokens exceed the model's context of 4096");
  });

  test("the other mode's settings the page's own links keep are not a notice (the CLI still names them)", () => {
    // written by the page after a LoRA training scenario was switched to inference: its settings stay in the link
    const link = '?model=meta-llama/Llama-2-7b-hf&mode=inference&method=lora&seq=4096&precision=bf16&lora-rank=64';
    useApp.setState({ notices: [] });
    readUrl(link);
    expect(useApp.getState().notices.find((n) => n.id === 'url-warn')).toBeUndefined();
    expect(useApp.getState().scenarios[0]).toMatchObject({ seq: 4096, precision: 'bf16', loraRank: 64 });
    expect(
      decodeUrl(link)
        .warnings.map((w) => w.key)
        .sort(),
    ).toEqual(['lora-rank', 'method', 'precision', 'seq']);
  });

  test('syncing replaces the entry (no new history), keeps other views\u2019 pairs, and stops on unsubscribe', async () => {
    history.replaceState(null, '', '/app/?lab.preset=classic&net.x=1&batch=3');
    const before = history.length;
    expect(decodeUrl(location.search).extra.views).toEqual({ 'lab.preset': 'classic', 'net.x': '1' });
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

describe('the default GPU and old links (issue 12)', () => {
  test('a blank link opens with the GeForce RTX 4090 and writes it into the link', () => {
    useApp.setState({ ...initialData(), gpus: [], scenarios: [{ ...initialData().scenarios[0], gpu: '' }] });
    expect(readUrl('')).toEqual([]);
    expect(useApp.getState().gpus).toEqual(['rtx-4090']);
    expect(useApp.getState().scenarios[0].gpu).toBe('rtx-4090');
    expect(queryOf(useApp.getState())).toBe(`v=${URL_VERSION}&gpu=rtx-4090`);
    // only page extras: still a blank link
    readUrl('?lang=zh');
    expect(useApp.getState().gpus).toEqual(['rtx-4090']);
  });

  test('a share link of the page before the default GPU, without gpu=, still means no GPU', () => {
    // a link the page wrote before issue 12: the default scenario with batch 8 and no GPU chosen
    expect(readUrl('?v=1&batch=8')).toEqual([]);
    expect(useApp.getState().gpus).toEqual([]);
    expect(useApp.getState().scenarios[0]).toMatchObject({ batch: 8, gpu: '' });
    // and so does the bare default scenario's link, and a v0 link with a scenario key
    readUrl('?v=1');
    expect(useApp.getState().gpus).toEqual([]);
    readUrl('?bs=4');
    expect(useApp.getState().gpus).toEqual([]);
    expect(useApp.getState().scenarios[0].batch).toBe(4);
    // it writes back as it came: no gpu key
    expect(queryOf(useApp.getState())).toBe(`v=${URL_VERSION}&batch=4`);
  });

  test('a link that names a GPU keeps it', () => {
    readUrl('?v=1&gpu=a100-80gb-sxm4');
    expect(useApp.getState().gpus).toEqual(['a100-80gb-sxm4']);
  });
});

describe('Apply as a history entry (issue 12)', () => {
  test('changeAsNewEntry pushes one entry; Back reads the previous URL into the store', async () => {
    history.replaceState(null, '', '/app/?v=1&batch=3&gpu=rtx-4090');
    readUrl(location.search);
    const stop = syncUrl(0);
    const before = history.length;
    // a slider step replaces the entry ...
    useApp.getState().set('batch', 4);
    await new Promise((r) => setTimeout(r, 20));
    expect(history.length).toBe(before);
    // ... an Apply pushes one, after bringing the current entry up to date
    changeAsNewEntry(() => useApp.getState().patch({ batch: 1, gradCkpt: 'full' }));
    expect(history.length).toBe(before + 1);
    expect(location.search).toContain('grad-ckpt=full');
    history.back();
    await new Promise((r) => setTimeout(r, 50));
    expect(location.search).toContain('batch=4');
    expect(useApp.getState().scenarios[0]).toMatchObject({ batch: 4, gradCkpt: 'none' });
    stop();
  });
});

describe('links of the v2 release, opened and written back by the page, keep every view’s state (fixtures/links.v2.json)', () => {
  const links = [...fixture.calculator, ...fixture.lab, ...fixture.layers];
  test.each(links.map((l) => [l.what, l.link] as const))('%s', (_what, link) => {
    const before = decodeUrl(link);
    readUrl(`?${link}`);
    const after = decodeUrl(queryOf(useApp.getState(), before.extra.views));
    expect(after.version).toBe(URL_VERSION);
    expect(after.errors).toEqual([]);
    // a blank link (no v, no scenario key) opens with the GeForce RTX 4090: the one change the page makes
    const blank = before.version === 0 && Object.keys(serializeScenario(before.scenario)).length === 0;
    expect(after.scenario).toEqual(blank ? { ...before.scenario, gpu: 'rtx-4090' } : before.scenario);
    expect(after.extra.vs).toEqual(before.extra.vs);
    expect(after.extra.views).toEqual(before.extra.views);
    for (const k of ['lang', 'embed', 'view', 'unit', 'theme', 'controls'] as const) expect([k, after.extra[k]]).toEqual([k, before.extra[k]]);
    expect(readLab(after.extra.views ?? {})).toEqual(readLab(before.extra.views ?? {}));
    expect(readNet(after.extra.views ?? {})).toEqual(readNet(before.extra.views ?? {}));
  });

  test('a v1 link of the layer builder is rewritten once, in v2, with its net.* pairs as they were', () => {
    history.replaceState(null, '', '/app/?v=1&weights=int8&view=layers&net.p=vgg-16&net.b=8&net.m=inference');
    readUrl(location.search);
    const stop = syncUrl(0);
    expect(location.search).toBe(`?v=${URL_VERSION}&weights=bnb-int8&view=layers&net.p=vgg-16&net.b=8&net.m=inference`);
    stop();
  });
});
