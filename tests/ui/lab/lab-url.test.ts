import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { LAB_PANELS, LAB_URL_LIMITS, labPairs, readLab, type LabUrlState } from '../../../src/ui/lab/lab-url';
import { decodeUrl } from '../../../src/state/url-codec';
import { replaceViewPairs, wellFormed } from '../../../src/state/url-query';

/** The lab's state as the page reads it: the one codec, then the lab's keys. */
const read = (search: string) => readLab(decodeUrl(search).extra.views ?? {});
const merge = (search: string, s: LabUrlState) => replaceViewPairs(search, 'lab.', labPairs(s));

describe('lab.* link keys', () => {
  test('writing replaces only the lab keys and keeps the others verbatim, in order', () => {
    const q = merge('?v=1&gpu=a100-80gb-sxm4&compare=rtx-4090,24gib&lab.panel=oom&lab.oom=old&view=lab', {
      panel: 'sim',
      preset: 'classic',
      conf: 'expandable_segments:True',
      step: 3,
    });
    expect(q).toBe('v=1&gpu=a100-80gb-sxm4&compare=rtx-4090,24gib&view=lab&lab.panel=sim&lab.preset=classic&lab.conf=expandable_segments:True&lab.step=3');
  });

  test('what is written reads back through the page-wide codec', () => {
    const trace = 'capacity 1GiB\nalloc a 900MiB   # big & odd=chars\nfree a\n';
    const q = merge('view=lab', { panel: 'sim', trace, cap: '24 GiB', step: -1 });
    expect(decodeUrl(q).extra.views).toEqual({ 'lab.panel': 'sim', 'lab.trace': trace, 'lab.cap': '24 GiB', 'lab.step': '-1' });
    expect(read(q)).toEqual({ state: { panel: 'sim', trace, cap: '24 GiB', step: -1 }, ignored: [] });
  });

  test("the run's PYTORCH_CUDA_ALLOC_CONF has its own key, apart from the simulator's what-if conf", () => {
    const q = merge('view=lab', { panel: 'oom', conf: 'max_split_size_mb:64', runconf: 'expandable_segments:True' });
    expect(q).toBe('view=lab&lab.panel=oom&lab.conf=max_split_size_mb:64&lab.runconf=expandable_segments:True');
    expect(read(q).state).toEqual({ panel: 'oom', conf: 'max_split_size_mb:64', runconf: 'expandable_segments:True' });
  });

  test('texts over the limits are left out instead of cut', () => {
    const long = 'x'.repeat(LAB_URL_LIMITS.oom + 1);
    expect(merge('', { panel: 'oom', oom: long })).toBe('lab.panel=oom');
    expect(read(`lab.oom=${long}`)).toEqual({ state: { panel: 'oom' }, ignored: [`lab.oom (over ${LAB_URL_LIMITS.oom} characters)`] });
  });

  test('malformed or unknown values fall back to defaults without throwing, and are named', () => {
    expect(read('?lab.panel=nope&lab.step=abc&lab.oom=%E0%A4%A&lab.cap&lab.colour=red')).toEqual({ state: { panel: 'oom' }, ignored: ['lab.panel=nope', 'lab.step=abc', 'lab.colour'] });
    // the malformed escape is the codec's to report, like any key's
    expect(decodeUrl('?lab.oom=%E0%A4%A').errors.map((e) => e.code)).toEqual(['malformed']);
    expect(read('')).toEqual({ state: { panel: 'oom' }, ignored: [] });
    expect(read('?lab.panel=summary&lab.panel=sim').state.panel).toBe('summary');
  });
});

describe('lab.* keys under random input', () => {
  test('any query string reads without throwing, and any state within the limits reads back as written', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (q) => {
        const { state } = read(q);
        expect(LAB_PANELS).toContain(state.panel);
        if (state.step !== undefined) expect(Number.isInteger(state.step) && state.step >= -1).toBe(true);
      }),
    );
    const text = (max: number) => fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: max }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          panel: fc.constantFrom(...LAB_PANELS),
          preset: text(40),
          trace: text(300),
          cap: text(20),
          conf: text(60),
          step: fc.option(fc.integer({ min: -1, max: 1e6 }), { nil: undefined }),
          oom: text(300),
        }),
        fc.string({ maxLength: 60 }).filter((o) => !o.includes('lab.')),
        (state, other) => {
          const clean = Object.fromEntries(Object.entries(state).filter(([, v]) => v !== undefined)) as unknown as LabUrlState;
          // lone surrogates cannot travel in a URL; the writer replaces them like the codec does
          const expected = Object.fromEntries(Object.entries(clean).map(([k, v]) => [k, typeof v === 'string' ? wellFormed(v) : v]));
          expect(read(merge(other, clean)).state).toEqual(expected);
        },
      ),
    );
  });
});

test('surrogate pairs (emoji) survive; lone halves become U+FFFD', () => {
  const q = merge('', { panel: 'sim', trace: 'alloc a 4MiB # 🚀\n', conf: 'x\uD800y' });
  expect(read(q).state).toEqual({ panel: 'sim', trace: 'alloc a 4MiB # 🚀\n', conf: 'x\uFFFDy' });
});
