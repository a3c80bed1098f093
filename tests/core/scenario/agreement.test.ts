// @vitest-environment node
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { main } from '../../../src/cli/estimate';
import { estimate } from '../../../src/core/estimate';
import { resolveGpu } from '../../../src/core/gpus';
import { CONFLICTS } from '../../../src/core/scenario/conflicts';
import { defaultScenario, parseScenario, SCENARIO_FIELDS } from '../../../src/core/scenario';
import { fitsWithin } from '../../../src/core/fit-rule';
import { estimateWithReplay } from '../../../src/core/timeline';
import type { Scenario } from '../../../src/core/types';
import { optionReason } from '../../../src/ui/calculator/compat';
import { fitsOf } from '../../../src/ui/calculator/fits';

const NAME = new Map<string, string>(SCENARIO_FIELDS.map((f) => [f.prop, f.name]));
const enumOf = (prop: keyof Scenario) => {
  const k = SCENARIO_FIELDS.find((f) => f.prop === prop)!.kind;
  return k.type === 'enum' ? k.values : [];
};
/** Any of `values`, with the everyday first one drawn more often so that about half the draws are valid. */
function often<T>(values: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof({ weight: 2, arbitrary: fc.constant(values[0]) }, { weight: 1, arbitrary: fc.constantFrom(...values) });
}
/** Every key a combination rule reads, drawn from its own schema values (numbers near the rules' edges). */
const drawn = {
  mode: fc.constantFrom(...enumOf('mode')),
  method: fc.constantFrom(...enumOf('method')),
  weights: fc.constantFrom(...enumOf('weights')),
  kv: fc.constantFrom(...enumOf('kv')),
  engine: fc.constantFrom(...enumOf('engine')),
  precision: fc.constantFrom(...enumOf('precision')),
  optimizer: fc.constantFrom(...enumOf('optimizer')),
  gradCkpt: fc.constantFrom(...enumOf('gradCkpt')),
  attn: often(['sdpa', ...enumOf('attn')]),
  optimStep: often(['after-backward', ...enumOf('optimStep')]),
  zeroImpl: fc.constantFrom(...enumOf('zeroImpl')),
  offload: often(['none', ...enumOf('offload')]),
  split: often(['none', ...enumOf('split')]),
  zero: fc.constantFrom(0, 1, 2, 3),
  gradAccum: fc.constantFrom(1, 4),
  tp: often([1, 2, 3, 8]),
  pp: often([1, 2, 3]),
  gpus: fc.constantFrom(1, 2, 4, 6, 8, 16, 64),
  batch: fc.constantFrom(1, 8, 64),
  prompt: fc.constantFrom(128, 2048),
  gen: fc.constantFrom(0, 256),
  seq: fc.constantFrom(512, 4096),
  tensorSplit: often([null, [3, 1], [1, 1, 1, 1], [0, 2]]),
};
/** Real presets (GPT-2: 12 heads, 12 layers; Llama-2-7b: 32 / 32; Mixtral: MoE) or a bare count. */
const model = fc.constantFrom('openai-community/gpt2', 'meta-llama/Llama-2-7b-hf', 'mistralai/Mixtral-8x7B-v0.1', '7b', 'stabilityai/stable-diffusion-xl-base-1.0');
const gpu = fc.constantFrom('rtx-4090', 'a100-80gb-sxm4', '24gib', '');

const scenarioArb = fc.record({ ...drawn, model, gpu }).map(({ model: m, ...rest }): Scenario => {
  const quick = m === '7b';
  return { ...defaultScenario(), ...rest, model: quick ? '' : m, params: quick ? 7e9 : null } as Scenario;
});

/** The scenario as a link / CLI user writes it: every drawn key given explicitly. */
function recordOf(s: Scenario): Record<string, string> {
  const r: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const prop of Object.keys(drawn)) r[NAME.get(prop)!] = String(s[prop as keyof typeof drawn] ?? 'auto');
  if (s.model === '') r.params = '7b';
  else r.model = s.model;
  if (s.gpu !== '') r.gpu = s.gpu;
  return r;
}

const RULE_KEYS = [...new Set(CONFLICTS.map((r) => r.key))];

describe('parse, estimate, form and CLI agree (one combination table, one fit rule)', () => {
  test('10,000 random scenarios: same validity everywhere, and the same fit verdict', async () => {
    let valid = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const rec = recordOf(s);
        const est = estimate(s);
        const parsed = parseScenario(rec);
        const formBlocked = RULE_KEYS.filter((k) => optionReason(s, k, String(s[k] as string | number)) !== undefined);
        const cli = await main(['--json', ...Object.entries(rec).flatMap(([k, v]) => [`--${k}`, v])]);
        // a link is refused by the parser (a clash of choices) or, for a typed clash it keeps as written, by the estimate
        const verdicts = { estimate: est.ok, parse: parsed.errors.length === 0 && estimate(parsed.scenario).ok, form: formBlocked.length === 0, cli: cli.code === 0 };
        expect(verdicts, JSON.stringify(rec)).toEqual({ estimate: est.ok, parse: est.ok, form: est.ok, cli: est.ok });
        if (!est.ok) return;
        valid++;
        // a valid link reads back as exactly the scenario (no silent fallback)
        expect(parsed.scenario).toEqual(s);
        if (s.gpu === '') return;
        const device = resolveGpu(s.gpu)!;
        // the estimate the settled page and the CLI judge from (replayed where timeline/applies.ts says so)
        const shown = estimateWithReplay(s);
        if (!shown.ok) throw new Error('the replay refused what estimate() accepts');
        const core = fitsWithin(s, shown.value, device.capacityBytes);
        const page = fitsOf(s, [{ spec: s.gpu, gpu: device }], shown.value)[0].fits;
        const out = JSON.parse(cli.stdout) as { gpu: { fits: boolean } };
        expect({ page, cli: out.gpu.fits }).toEqual({ page: core, cli: core });
      }),
      { numRuns: 10_000, seed: 20261125 },
    );
    // the draw must exercise both sides: a fair share of valid and of refused scenarios
    expect(valid).toBeGreaterThan(1000);
    expect(valid).toBeLessThan(9000);
  }, 300_000);
});
