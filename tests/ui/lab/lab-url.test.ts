import { describe, expect, test } from 'vitest';
import { LAB_URL_LIMITS, mergeLabQuery, readLabState } from '../../../src/ui/lab/lab-url';
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
