import { describe, expect, test } from 'vitest';
import { decodeUrl } from '../../src/state/url-codec';
import { DEFAULT_SCENARIO } from '../../src/core/scenario/schema';
import type { Scenario } from '../../src/core/types';
import { readLab } from '../../src/ui/lab/lab-url';
import { readNet } from '../../src/ui/layers/net-url';
import fixture from './fixtures/links.v2.json';

/**
 * Links of the release at c9b39b8 (fixtures/links.v2.json): written by that page's own code or read
 * from its address bar in Chromium, plus the old-version links its migration chain accepted. Each
 * carries what that release's decoders read from it; today's codec must read the same.
 */
const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

/** Scenario keys added after the fixture was written: an old link reads them at their defaults. */
const ADDED_SINCE: Partial<Scenario> = {
  autocast: DEFAULT_SCENARIO.autocast,
  allocConf: DEFAULT_SCENARIO.allocConf,
  doubleQuant: DEFAULT_SCENARIO.doubleQuant,
  bnbVersion: DEFAULT_SCENARIO.bnbVersion,
  groupSize: DEFAULT_SCENARIO.groupSize,
  tensorSplit: DEFAULT_SCENARIO.tensorSplit,
  kvResidual: DEFAULT_SCENARIO.kvResidual,
  descAct: DEFAULT_SCENARIO.descAct,
  gptqKernel: DEFAULT_SCENARIO.gptqKernel,
  images: DEFAULT_SCENARIO.images,
  resolution: DEFAULT_SCENARIO.resolution,
  cfg: DEFAULT_SCENARIO.cfg,
  offloadModel: DEFAULT_SCENARIO.offloadModel,
};
/**
 * Warnings added after the fixture was written, by link: the schema now says which mode reads each key
 * (`modes`), so a key the link's mode ignores is named — the decoded state is unchanged. The v0 alias
 * `ctx` became `prompt`, which a training link does not read (its sequence length is `seq`).
 */
const WARNINGS_SINCE: Record<string, string[]> = {
  'v0 link (no v): aliases bs, quant, ctx and grad-ckpt=true': ['prompt:unused-key'],
};

/** The recorded state with ADDED_SINCE filled into every scenario it holds (the main one and vs columns). */
function withAdded(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(withAdded);
  if (typeof x !== 'object' || x === null) return x;
  const o = Object.fromEntries(Object.entries(x).map(([k, v]) => [k, withAdded(v)]));
  return 'loraRank' in o && 'model' in o ? { ...ADDED_SINCE, ...o } : o;
}
function decoded(link: string): unknown {
  const d = decodeUrl(link);
  return json({
    version: d.version,
    scenario: d.scenario,
    extra: d.extra,
    errors: d.errors.map((e) => `${e.key}:${e.code}`),
    warnings: d.warnings.map((e) => `${e.key}:${e.code}`),
    ignored: d.ignored,
  });
}

describe('links of the v2 release keep decoding to the same state', () => {
  test.each(fixture.calculator.map((l) => [l.what, l] as const))('calculator: %s', (what, l) => {
    const want = withAdded(l.decoded) as { warnings: string[] };
    expect(decoded(l.link)).toEqual({ ...want, warnings: [...want.warnings, ...(WARNINGS_SINCE[what] ?? [])] });
  });

  test.each(fixture.lab.map((l) => [l.what, l] as const))('allocator lab: %s', (_w, l) => {
    expect(decoded(l.link)).toEqual(withAdded(l.decoded));
    expect(json(readLab(decodeUrl(l.link).extra.views ?? {}).state)).toEqual(l.lab);
  });

  test.each(fixture.layers.map((l) => [l.what, l] as const))('layer builder: %s', (_w, l) => {
    expect(decoded(l.link)).toEqual(withAdded(l.decoded));
    expect(json(readNet(decodeUrl(l.link).extra.views ?? {}))).toEqual(l.net);
  });

  test('the fixture covers every version the chain reads, and each view', () => {
    const all = [...fixture.calculator, ...fixture.lab, ...fixture.layers];
    expect(new Set(all.map((l) => l.decoded.version))).toEqual(new Set([0, 1, 2, 3]));
    expect(new Set(all.map((l) => (l.decoded.extra as { view?: string }).view ?? 'calculator'))).toEqual(new Set(['calculator', 'lab', 'layers']));
  });
});
