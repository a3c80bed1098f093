import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { LAB_PANELS, LAB_URL_LIMITS, mergeLabQuery, readLabState, wellFormed, type LabUrlState } from '../../../src/ui/lab/lab-url';
import { decodeUrl } from '../../../src/state/url-codec';

describe('lab.* query keys', () => {
  test('merging replaces only the lab keys and keeps the others verbatim, in order', () => {
    const q = mergeLabQuery('?v=1&gpu=a100-80gb-sxm4&compare=rtx-4090,24gib&lab.panel=oom&lab.oom=old&view=lab', {
      panel: 'sim',
      preset: 'classic',
      conf: 'expandable_segments:True',
      step: 3,
    });
    expect(q).toBe('v=1&gpu=a100-80gb-sxm4&compare=rtx-4090,24gib&view=lab&lab.panel=sim&lab.preset=classic&lab.conf=expandable_segments:True&lab.step=3');
  });

  test('what is written reads back, through both readers', () => {
    const trace = 'capacity 1GiB\nalloc a 900MiB   # big & odd=chars\nfree a\n';
    const q = mergeLabQuery('view=lab', { panel: 'sim', trace, cap: '24 GiB', step: -1 });
    expect(readLabState(q)).toEqual({ panel: 'sim', trace, cap: '24 GiB', step: -1 });
    // the page-wide codec passes the same keys through untouched
    expect(decodeUrl(q).extra.views).toEqual({ 'lab.panel': 'sim', 'lab.trace': trace, 'lab.cap': '24 GiB', 'lab.step': '-1' });
  });

  test('texts over the limits are left out instead of cut', () => {
    const long = 'x'.repeat(LAB_URL_LIMITS.oom + 1);
    const q = mergeLabQuery('', { panel: 'oom', oom: long });
    expect(q).toBe('lab.panel=oom');
  });

  test('malformed or unknown values fall back to defaults without throwing', () => {
    expect(readLabState('?lab.panel=nope&lab.step=abc&lab.oom=%E0%A4%A&lab.cap')).toEqual({ panel: 'oom' });
    expect(readLabState('')).toEqual({ panel: 'oom' });
    expect(readLabState('?lab.panel=summary&lab.panel=sim').panel).toBe('summary');
  });
});

describe('lab.* keys under random input', () => {
  test('any query string reads without throwing, and any state within the limits reads back as written', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (q) => {
        const s = readLabState(q);
        expect(LAB_PANELS).toContain(s.panel);
        if (s.step !== undefined) expect(Number.isInteger(s.step) && s.step >= -1).toBe(true);
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
          // lone surrogates cannot travel in a URL; the writer replaces them like url-codec does
          const expected = Object.fromEntries(Object.entries(clean).map(([k, v]) => [k, typeof v === 'string' ? wellFormed(v) : v]));
          expect(readLabState(mergeLabQuery(other, clean))).toEqual(expected);
        },
      ),
    );
  });
});

test('surrogate pairs (emoji) survive; lone halves become U+FFFD', () => {
  const q = mergeLabQuery('', { panel: 'sim', trace: 'alloc a 4MiB # 🚀\n', conf: 'x\uD800y' });
  expect(readLabState(q)).toEqual({ panel: 'sim', trace: 'alloc a 4MiB # 🚀\n', conf: 'x\uFFFDy' });
});
