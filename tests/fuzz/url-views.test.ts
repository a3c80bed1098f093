// Fuzz: the one link codec over all three views (src/state/url-codec.ts, url-query.ts, and the lab's
// and layer builder's keys, src/ui/lab/lab-url.ts, src/ui/layers/net-url.ts). Any string decodes
// without throwing, quickly, into usable states of every view; any states written through the codec
// read back as written; a huge link costs what its first 256 KB cost.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { decodeUrl, encodeUrl } from '../../src/state/url-codec';
import { URL_LIMITS, replaceViewPairs, wellFormed } from '../../src/state/url-query';
import { LAB_PANELS, labPairs, readLab, type LabUrlState } from '../../src/ui/lab/lab-url';
import { netPairs, presetState, readNet, type NetState } from '../../src/ui/layers/net-url';
import { NETWORK_PRESETS } from '../../src/core/layers/presets';
import { OPTIMIZERS, PRECISIONS } from '../../src/core/scenario/schema';
import { LIMIT_MS, RUNS, assertFinite, mutated, soup, timed } from './scan';
import { recordArb } from './scenario-arb';
import { cpuMs } from '../hostile/budget';

const text = (max: number) => fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: max }), { nil: undefined });
const labArb: fc.Arbitrary<LabUrlState> = fc
  .record({
    panel: fc.constantFrom(...LAB_PANELS),
    preset: text(40),
    trace: text(200),
    cap: text(20),
    conf: text(60),
    step: fc.option(fc.integer({ min: -1, max: 1e6 }), { nil: undefined }),
    oom: text(200),
    summary: text(200),
  })
  .map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as unknown as LabUrlState);
const netArb: fc.Arbitrary<NetState> = fc
  .record({
    preset: fc.constantFrom(...NETWORK_PRESETS.map((p) => p.id)),
    batch: fc.integer({ min: 1, max: 4096 }),
    mode: fc.constantFrom('inference' as const, 'training' as const),
    precision: fc.constantFrom(...PRECISIONS),
    optimizer: fc.constantFrom(...OPTIMIZERS),
    ckpt: fc.boolean(),
    gpus: fc.uniqueArray(fc.constantFrom('rtx-4090', 'a100-80gb-sxm4', 'h100-sxm', '24gib', '80gib'), { maxLength: 4 }),
  })
  .map(({ preset, ...rest }) => ({ ...presetState(preset), ...rest }));
const queryArb = recordArb().map((r) =>
  Object.entries(r)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&'),
);
const views = (lab: LabUrlState, net: NetState) => Object.fromEntries([...labPairs(lab), ...netPairs(net)]);

/** A link with every view's state, as the page writes it (the calculator's keys, then lab.*, then net.*). */
const linkArb = fc.tuple(queryArb, labArb, netArb, fc.constantFrom('', '&view=lab', '&view=layers', '&v=1', '&v=0', '&lang=zh')).map(([q, lab, net, x]) => {
  const d = decodeUrl(q + x);
  return encodeUrl(d.scenario, { ...d.extra, views: views(lab, net) });
});
const tokens = [
  'v=1',
  'v=2',
  'v=99',
  'v=abc',
  'view=lab',
  'view=layers',
  'lab.',
  'net.',
  'panel=',
  'sim',
  'step=',
  'trace=',
  'p=',
  'custom',
  'l=',
  'e=',
  'in=',
  'b=',
  'g=',
  'resnet-50',
  '&',
  '=',
  '%',
  '%26',
  '%3D',
  '~',
  '(',
  ')',
  ';',
];

/** Every view's state from one link: the codec, then each view's keys. Must never throw. */
function readAll(search: string) {
  return timed('decode + views', LIMIT_MS, () => {
    const d = decodeUrl(search);
    const v = d.extra.views ?? {};
    return { d, lab: readLab(v), net: readNet(v) };
  });
}

describe(`one codec, three views (${RUNS} cases)`, () => {
  test('any string, soup of view keys, or edited full link: no throw, finite, usable states in every view', () => {
    const input = fc.oneof(fc.string({ maxLength: 300, unit: 'binary' }), soup(tokens, 60), mutated(linkArb));
    fc.assert(
      fc.property(input, (s) => {
        const { d, lab, net } = readAll(s);
        assertFinite('decodeUrl', d);
        expect(LAB_PANELS).toContain(lab.state.panel);
        expect(Number.isInteger(net.state.batch) && net.state.batch >= 1).toBe(true);
        expect(net.state.input.every((x) => Number.isInteger(x) && x >= 1)).toBe(true);
        // the page's rewrite of any link is read back to the same state in every view (lone UTF-16
        // surrogates, which no URL can carry, written as U+FFFD)
        const again = readAll(encodeUrl(d.scenario, d.extra));
        const clean = Object.fromEntries(Object.entries(d.extra.views ?? {}).map(([k, v]) => [k, wellFormed(v)]));
        expect(again.d.scenario).toEqual(d.scenario);
        expect(again.lab).toEqual(readLab(clean));
        expect(again.net).toEqual(readNet(clean));
      }),
      { numRuns: RUNS },
    );
  });

  test('every view’s state written through the codec reads back as written, whatever the calculator keys', () => {
    fc.assert(
      fc.property(queryArb, labArb, netArb, (q, lab, net) => {
        const d = decodeUrl(q);
        const { d: back, lab: l, net: n } = readAll(encodeUrl(d.scenario, { ...d.extra, views: views(lab, net) }));
        expect(back.scenario).toEqual(d.scenario);
        // lone surrogates cannot travel in a URL; the codec writes U+FFFD for them
        expect(l).toEqual({ state: Object.fromEntries(Object.entries(lab).map(([k, v]) => [k, typeof v === 'string' ? wellFormed(v) : v])), ignored: [] });
        expect(n).toEqual({ state: net, ignored: [] });
      }),
      { numRuns: RUNS / 5 },
    );
  });

  test('a view rewriting its own keys changes no other view’s state and reads back as written', () => {
    fc.assert(
      fc.property(linkArb, labArb, netArb, (link, lab, net) => {
        const before = readAll(link);
        const q = replaceViewPairs(replaceViewPairs(link, 'lab.', labPairs(lab)), 'net.', netPairs(net));
        const after = readAll(q);
        expect(after.d.scenario).toEqual(before.d.scenario);
        expect(after.d.version).toBe(before.d.version);
        expect(after.lab.state).toEqual(Object.fromEntries(Object.entries(lab).map(([k, v]) => [k, typeof v === 'string' ? wellFormed(v) : v])));
        expect(after.net.state).toEqual(net);
      }),
      { numRuns: RUNS / 5 },
    );
  });
});

describe('huge links cost what their first 256 KB cost', () => {
  // 15 MB: a lab trace, a layer list and 100,000 pairs far past every limit
  const huge = `v=2&view=layers&lab.trace=${'alloc%20a%201MiB%0A'.repeat(400_000)}&net.p=custom&net.l=${'relu%3B'.repeat(1_000_000)}&${'net.b=1&'.repeat(100_000)}`;

  test('decoding reads at most URL_LIMITS.input characters and names what it left out', () => {
    expect(huge.length).toBeGreaterThan(50 * URL_LIMITS.input);
    const [r, ms] = cpuMs(() => readAll(huge));
    // the lab trace alone is over 7 MB: over the input limit, the pair is cut and then over the view value limit
    expect(r.d.extra.views?.['lab.trace']).toBeUndefined();
    expect(r.d.ignored).toContain('lab.trace');
    expect(r.lab.state).toEqual({ panel: 'oom' });
    expect(r.net.state.preset).toBe('resnet-50');
    expect(ms).toBeLessThan(1000);
  });

  test('a view rewriting its keys over a huge address bar keeps within the input limit', () => {
    const [q, ms] = cpuMs(() => replaceViewPairs(huge, 'lab.', labPairs({ panel: 'sim', preset: 'classic' })));
    expect(q.length).toBeLessThanOrEqual(URL_LIMITS.input);
    expect(readAll(q).lab.state).toEqual({ panel: 'sim', preset: 'classic' });
    expect(ms).toBeLessThan(1000);
  });

  test('200 view pairs filling the 256 KB input, every one read: linear, within budget', () => {
    const keys = ['lab.trace', 'lab.oom', 'lab.summary', 'net.l', 'net.e'];
    // the five known keys at 8,000 characters (over the lab's limits), 195 more at 1,000
    const q = Array.from({ length: 200 }, (_, i) => (i < keys.length ? `${keys[i]}=${'x'.repeat(8000)}` : `lab.k${i}=${'x'.repeat(1000)}`)).join('&');
    expect(q.length).toBeLessThanOrEqual(URL_LIMITS.input);
    const [r, ms] = cpuMs(() => readAll(q));
    expect(Object.keys(r.d.extra.views ?? {})).toHaveLength(200);
    // over the lab's own limits: named, not kept
    expect(r.lab.ignored).toContain('lab.trace (over 2000 characters)');
    expect(ms).toBeLessThan(2000);
  });
});
