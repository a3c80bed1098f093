import { describe, expect, test } from 'vitest';
import { decodeUrl, encodeUrl } from '../../src/state/url-codec';
import { URL_VERSION } from '../../src/state/migrations';
import fixture from './fixtures/int8-links.v1.json';

/**
 * Links written by the page before plain int8 / int4 existed (fixtures/int8-links.v1.json, made by
 * that page's own encodeUrl): `weights=int8` there meant bitsandbytes LLM.int8, now `bnb-int8`.
 * Every other key decodes to what that page decoded it to.
 */
describe('v1 links with weights=int8 keep their meaning (bitsandbytes LLM.int8)', () => {
  test.each(fixture.links.map((l) => [l.what, l] as const))('%s', (_what, l) => {
    const d = decodeUrl(l.link);
    expect(d.errors).toEqual([]);
    const old = l.scenario as Record<string, unknown>;
    const now = d.scenario as unknown as Record<string, unknown>;
    for (const k of Object.keys(old)) expect([k, now[k]]).toEqual([k, k === 'weights' && old[k] === 'int8' ? 'bnb-int8' : old[k]]);
    expect((d.extra.vs ?? []).map((v) => v.weights)).toEqual(l.vs.map((v) => (v.weights === 'int8' ? 'bnb-int8' : v.weights)));
    // written back in today's spelling, the link reads the same again
    const again = decodeUrl(encodeUrl(d.scenario, d.extra));
    expect(again.version).toBe(URL_VERSION);
    expect(again.scenario).toEqual(d.scenario);
  });

  test('the fixtures do hold an LLM.int8 scenario in each link', () => {
    for (const l of fixture.links) expect([l.scenario.weights, ...l.vs.map((v) => v.weights)]).toContain('int8');
  });

  test('from v2 on, weights=int8 is plain int8 and bnb-int8 stays bnb-int8', () => {
    expect(decodeUrl(`v=${URL_VERSION}&weights=int8`).scenario.weights).toBe('int8');
    expect(decodeUrl(`v=${URL_VERSION}&weights=int4`).scenario.weights).toBe('int4');
    expect(decodeUrl('v=1&weights=bnb-int8').scenario.weights).toBe('bnb-int8');
    expect(decodeUrl('v=1&weights=nf4').scenario.weights).toBe('nf4');
  });
});
