import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { decodeUrl, encodeUrl } from '../../src/state/url-codec';
import { URL_LIMITS } from '../../src/state/url-query';
import { MIGRATIONS, URL_VERSION } from '../../src/state/migrations';
import { ALL_KEYS, DEFAULT_SCENARIO, defaultScenario, parseScenario } from '../../src/core/scenario';
import type { Scenario } from '../../src/core/types';

const reencode = (q: string) => {
  const d = decodeUrl(q);
  return encodeUrl(d.scenario, d.extra);
};

describe('encodeUrl', () => {
  test('the default scenario is just the version', () => {
    expect(encodeUrl(defaultScenario())).toBe(`v=${URL_VERSION}`);
  });

  test('readable keys and values: slashes and commas stay literal', () => {
    const s = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', mode: 'training', method: 'lora', 'lora-targets': 'q,k,v', batch: '4' }).scenario;
    expect(encodeUrl(s)).toBe(`v=${URL_VERSION}&model=meta-llama/Llama-2-7b-hf&mode=training&method=lora&batch=4&lora-targets=q,k,v`);
  });

  test('extras: lang, embed, view, compared GPUs, side-by-side scenarios, other views', () => {
    const vs = parseScenario({ weights: 'nf4' }).scenario;
    const q = encodeUrl(defaultScenario(), { lang: 'zh-CN', embed: true, view: 'lab', compare: ['RTX-4090', '24 GiB', 'bogus'], vs: [vs], views: { 'net.layers': 'conv3x3,relu' } });
    expect(q).toBe(`v=${URL_VERSION}&lang=zh-CN&embed=1&view=lab&compare=rtx-4090,24gib&vs=weights%3Dnf4&net.layers=conv3x3,relu`);
    const d = decodeUrl(q);
    expect(d.extra).toEqual({ lang: 'zh-CN', embed: true, view: 'lab', compare: ['rtx-4090', '24gib'], vs: [vs], views: { 'net.layers': 'conv3x3,relu' } });
    expect(d.errors).toEqual([]);
  });

  test('widget extras: unit, theme and controls travel; the defaults (GiB, auto) are not written', () => {
    const q = encodeUrl(defaultScenario(), { embed: true, unit: 'GB', theme: 'dark', controls: ['batch', 'prompt', 'gpu'] });
    expect(q).toBe(`v=${URL_VERSION}&embed=1&unit=gb&theme=dark&controls=batch,prompt,gpu`);
    expect(decodeUrl(q).extra).toEqual({ embed: true, unit: 'GB', theme: 'dark', controls: ['batch', 'prompt', 'gpu'] });
    expect(encodeUrl(defaultScenario(), { unit: 'GiB' })).toBe(`v=${URL_VERSION}`);
    expect(decodeUrl('?unit=GiB&theme=auto').extra).toEqual({});
    // unknown controls are dropped by name, repeats kept once; a bad unit or theme is ignored
    const d = decodeUrl('?controls=batch,nope,batch,seq&unit=mb&theme=blue');
    expect(d.extra).toEqual({ controls: ['batch', 'seq'] });
    expect(d.ignored).toEqual(['controls=nope', 'unit', 'theme']);
  });
});

describe('decodeUrl', () => {
  test('reads a whole URL, ignores the fragment, + as space', () => {
    const d = decodeUrl('https://example.org/calc?v=1&batch=8&gpu=24+GiB#section');
    expect(d.scenario.batch).toBe(8);
    expect(d.scenario.gpu).toBe('24gib');
    expect(d.errors).toEqual([]);
  });

  test('malformed escapes are named and skipped', () => {
    const d = decodeUrl('v=1&batch=%E0%A4%A&gen=%ZZ&prompt=512');
    expect(d.errors.map((e) => e.code)).toEqual(['malformed', 'malformed']);
    expect(d.scenario.prompt).toBe(512);
    expect(d.scenario.batch).toBe(DEFAULT_SCENARIO.batch);
  });

  test('__proto__ and constructor keys do not touch prototypes', () => {
    const d = decodeUrl('v=1&__proto__=x&constructor=y&__proto__%5Bpolluted%5D=1&batch=2');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(d.ignored).toEqual(expect.arrayContaining(['__proto__', 'constructor']));
    expect(d.scenario.batch).toBe(2);
  });

  test('script payloads are rejected as values, never echoed at length', () => {
    const d = decodeUrl(`v=1&model=${encodeURIComponent('<script>alert(1)</script>'.repeat(20))}`);
    expect(d.scenario.model).toBe(DEFAULT_SCENARIO.model);
    expect(d.errors[0].message.length).toBeLessThan(200);
  });

  test('repeated keys: the first wins, the rest are listed', () => {
    const d = decodeUrl('v=1&batch=2&batch=64');
    expect(d.scenario.batch).toBe(2);
    expect(d.ignored).toEqual(['batch (repeated)']);
  });

  test('a 100 KB string and 10,000 pairs decode quickly, capped', () => {
    const t0 = Date.now();
    expect(decodeUrl('model=' + 'a'.repeat(100_000)).scenario.model).toBe(DEFAULT_SCENARIO.model);
    const d = decodeUrl(Array.from({ length: 10_000 }, (_, i) => `k${i}=1`).join('&'));
    expect(d.errors.some((e) => e.code === 'too-many-keys')).toBe(true);
    expect(d.ignored.filter((k) => k.startsWith('k')).length).toBe(URL_LIMITS.pairs);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  test('other views\u2019 keys pass through untouched and re-encode identically', () => {
    const q = `v=${URL_VERSION}&batch=4&lab.trace=alloc%20a%201GiB%3Bfree%20a&net.layers=conv3,relu`;
    const d = decodeUrl(q);
    expect(d.extra.views).toEqual({ 'lab.trace': 'alloc a 1GiB;free a', 'net.layers': 'conv3,relu' });
    expect(reencode(q)).toBe(q);
  });

  test('unknown compared GPUs and broken vs columns are dropped and listed', () => {
    const d = decodeUrl('v=1&compare=h100-sxm,nope&vs=batch%3D0&vs=batch%3D2');
    expect(d.extra.compare).toEqual(['h100-sxm']);
    expect(d.extra.vs?.map((s) => s.batch)).toEqual([2]);
    expect(d.ignored).toEqual(['compare:nope', 'vs']);
  });
});

describe('versions and migrations', () => {
  test('an unversioned (v0) link migrates its aliases', () => {
    const d = decodeUrl('bs=4&quant=nf4&ctx=8192&grad-ckpt=true&mode=training&method=qlora');
    expect(d.version).toBe(0);
    expect(d.errors).toEqual([]);
    expect([d.scenario.batch, d.scenario.weights, d.scenario.prompt, d.scenario.gradCkpt]).toEqual([4, 'nf4', 8192, 'full']);
    expect(reencode('bs=4')).toBe(`v=${URL_VERSION}&batch=4`);
  });

  test('in v1 the old aliases are unknown keys', () => {
    const d = decodeUrl('v=1&bs=4');
    expect(d.errors.map((e) => `${e.key}:${e.code}`)).toEqual(['bs:unknown-key']);
  });

  test('a newer version reads best-effort with a warning; a bad version is an error', () => {
    expect(decodeUrl('v=7&batch=3').warnings.map((w) => w.code)).toContain('newer-version');
    expect(decodeUrl('v=x&batch=3').errors.map((e) => e.code)).toEqual(['invalid-value']);
    expect(MIGRATIONS.every((m) => m.from < URL_VERSION)).toBe(true);
  });
});

describe('properties (fast-check)', () => {
  const finite = (s: Scenario) => [s.params, s.batch, s.prompt, s.gen, s.seq, s.loraRank, s.gpus, s.tp, s.pp, s.gpuUtil, s.ngl, s.ubatch].every((n) => n === null || Number.isFinite(n));
  const token = fc.oneof(
    fc.constantFrom(...ALL_KEYS, 'v', 'lang', 'embed', 'view', 'compare', 'vs', 'lab.x', 'net.y', '__proto__', '%', '%E0', '=', '&', '#', '?', '+'),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 8 }),
  );
  const query = fc.array(fc.tuple(token, token), { maxLength: 12 }).map((ps) => ps.map(([k, v]) => `${k}=${v}`).join('&'));

  test('any string: decode never throws, finite scenario, encode∘decode stable', () => {
    fc.assert(
      fc.property(fc.oneof(query, fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 60 })), (q) => {
        const d = decodeUrl(q);
        expect(finite(d.scenario)).toBe(true);
        const once = encodeUrl(d.scenario, d.extra);
        expect(reencode(once)).toBe(once);
        expect(decodeUrl(once).errors).toEqual([]);
      }),
      { numRuns: 10_000 },
    );
  }, 120_000); // generous: thousands of cases on a loaded CI machine

  test('valid scenarios: encode(decode(encode(s))) === encode(s) and decode restores s', () => {
    const rec = fc.dictionary(
      fc.constantFrom(...ALL_KEYS),
      fc.constantFrom('2', '8', '32', '4096', 'training', 'lora', 'qlora', 'nf4', 'vllm', 'llama.cpp', 'fp8', 'all', '7b', 'true', 'full', '3', '0.5', 'custom', 'mistralai/Mixtral-8x7B-v0.1'),
      { maxKeys: 12 },
    );
    fc.assert(
      fc.property(rec, (r) => {
        const s = parseScenario(r).scenario;
        const e = encodeUrl(s);
        expect(encodeUrl(decodeUrl(e).scenario)).toBe(e);
        expect(decodeUrl(e).scenario).toEqual(s);
      }),
      { numRuns: 10_000 },
    );
  }, 120_000); // generous: thousands of cases on a loaded CI machine
});

describe('docs/url-schema.md', () => {
  test('documents every schema key and every migration', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync('docs/url-schema.md', 'utf8');
    for (const k of ALL_KEYS) expect(doc).toContain(`| \`${k}\` |`);
    for (const m of MIGRATIONS) expect(doc).toContain(`| v${m.from} `);
  });
});
