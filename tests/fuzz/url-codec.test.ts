// Fuzz: the share-link codec (src/state/url-codec.ts). decodeUrl must take any string — random,
// or a valid link with random edits — without throwing, quickly, with no NaN/Infinity anywhere;
// encode∘decode must be a fixed point; every scenario it yields must estimate to finite figures.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { decodeUrl, encodeUrl, type UrlExtra } from '../../src/state/url-codec';
import { estimate } from '../../src/core/estimate';
import type { Scenario } from '../../src/core/types';
import { LIMIT_MS, RUNS, assertFinite, mutated, soup, timed } from './scan';
import { recordArb } from './scenario-arb';

const queryArb = recordArb().map((r) =>
  Object.entries(r)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&'),
);
const extrasArb = fc.constantFrom('', '&lang=zh', '&embed=1', '&view=lab', '&compare=rtx-4090,24gib', '&lab.trace=alloc%20a%201GiB', '&net.text=linear%204%204', '&v=1', '&v=0', '&v=99');
/** 400 valid share links (a decoded random record, encoded again, with an extra), built once. */
const LINKS = fc.sample(
  fc.tuple(queryArb, extrasArb, fc.constantFrom('', '?', 'https://example.org/sub/?')).map(([q, x, pre]) => {
    const d = decodeUrl(q + x);
    return pre + encodeUrl(d.scenario, d.extra);
  }),
  { numRuns: 400, seed: 6 },
);
const linkArb = fc.constantFrom(...LINKS);
const urlTokens = [
  'v=1',
  'model=',
  'custom',
  'params=',
  '7b',
  'mode=training',
  'batch=',
  'gpus=',
  'tp=',
  'pp=',
  'zero=3',
  'vs=',
  'compare=',
  'lab.',
  'net.',
  'hidden=',
  'layers=',
  'heads=',
  'kv-heads=',
  '&',
  '=',
  '%26',
  '%3D',
  '%',
  'lang=',
  'embed=1',
  'view=',
];

function checkDecoded(search: string): ReturnType<typeof decodeUrl> {
  const d = timed('decodeUrl', LIMIT_MS, () => decodeUrl(search));
  assertFinite('decodeUrl', d);
  for (const e of [...d.errors, ...d.warnings]) {
    expect(typeof e.key).toBe('string');
    expect(typeof e.code).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
  }
  return d;
}

/** Estimate of a codec scenario: ok with finite, ordered totals, or named field errors. */
function checkEstimate(s: Scenario): void {
  const r = timed('estimate', LIMIT_MS, () => estimate(s));
  assertFinite('estimate', r);
  if (!r.ok) {
    expect(r.errors.length).toBeGreaterThan(0);
    return;
  }
  const e = r.value;
  expect(e.allocatedBytes).toBeGreaterThan(0);
  expect(e.reservedBytes).toBeGreaterThanOrEqual(e.allocatedBytes);
  expect(e.deviceBytes).toBeGreaterThanOrEqual(e.reservedBytes);
  for (const t of e.terms) expect(t.bytes).toBeGreaterThanOrEqual(0);
}

/** Extras with an empty GPU comparison dropped: decodeUrl keeps `compare: []` when every entry was rejected, encodeUrl writes nothing. */
function extras(x: UrlExtra): UrlExtra {
  const { compare, ...rest } = x;
  return compare && compare.length > 0 ? { ...rest, compare } : rest;
}

/**
 * Any decoded link, written again, reads back to the same scenario; from then on encode∘decode is
 * a fixed point (the first write may replace lone UTF-16 surrogates in view state with U+FFFD).
 */
function checkFixedPoint(d: ReturnType<typeof decodeUrl>): void {
  const once = encodeUrl(d.scenario, d.extra);
  const again = decodeUrl(once);
  expect(again.errors).toEqual([]);
  expect(again.scenario).toEqual(d.scenario);
  const twice = encodeUrl(again.scenario, again.extra);
  expect(twice).toBe(once);
  expect(extras(decodeUrl(twice).extra)).toEqual(extras(again.extra));
}

/** Regressions (.tmp/requests/trust.md §1, since fixed): gpus raised to tp·pp past its own maximum. */
const KNOWN_BUGS: [string][] = [['model=custom&hidden=65536&layers=8192&heads=4096&kv-heads=4096&ffn=4096&vocab=100&tp=4096&pp=4096'], ['tp=245&pp=4096']];

describe(`URL codec fuzz (${RUNS} cases)`, () => {
  test('arbitrary strings, random records and edited valid links: no throw, finite, encode∘decode fixed point, finite estimates', () => {
    const input = fc.oneof(
      fc.string({ maxLength: 300, unit: 'binary' }),
      soup(urlTokens, 60),
      fc.tuple(queryArb, extrasArb).map(([q, x]) => q + x),
      mutated(linkArb),
    );
    fc.assert(
      fc.property(input, (s) => {
        const d = checkDecoded(s);
        checkFixedPoint(d);
        checkEstimate(d.scenario);
      }),
      { numRuns: RUNS, examples: KNOWN_BUGS },
    );
  });
});
