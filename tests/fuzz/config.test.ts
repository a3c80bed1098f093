// Fuzz: config.json import (src/core/model/config.ts parseHfConfig). Arbitrary JSON values,
// the real preset configs (data/models.json) with keys deleted, renamed, nested or
// set to hostile values, and their JSON text with random edits. An accepted config must count to
// finite, positive parameters and estimate to finite figures; a rejected one names its key.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parseHfConfig } from '../../src/core/model/config';
import { countParams } from '../../src/core/model/params';
import { CATALOGUE } from '../core/model/catalogue';
import { estimate } from '../../src/core/estimate';
import { parseScenario } from '../../src/core/scenario';
import type { ModelArch, Result } from '../../src/core/types';
import { LIMIT_MS, RUNS, assertFinite, mutated, timed } from './scan';

const configs = CATALOGUE.map((r) => r.config);
const hostile = fc.oneof(
  fc.constantFrom(0, -1, 1, 0.5, -0.5, 1e308, -1e308, 2 ** 53, 2 ** 31, 1e-320, Number.NaN, Infinity, -Infinity, -0),
  fc.constantFrom(null, true, false, '', '7', 'NaN', '1e309', [], {}, [1, 2, 3], { a: 1 }),
  fc.double(),
  fc.integer({ min: -10, max: 300_000 }),
  fc.string({ maxLength: 8 }),
);

type Mutation = { kind: 'delete' | 'set' | 'rename' | 'nest'; pick: number; value: unknown; name: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'set', 'set', 'rename', 'nest'),
  pick: fc.nat(),
  value: hostile,
  name: fc.constantFrom('text_config', 'hidden_size', 'num_hidden_layers', 'num_attention_heads', 'n_routed_experts', 'head_dim', 'layer_types', '__proto__', 'x'),
});

function mutate(cfg: Record<string, unknown>, m: Mutation): Record<string, unknown> {
  const keys = Object.keys(cfg);
  const key = keys.length ? keys[m.pick % keys.length] : m.name;
  const out: Record<string, unknown> = { ...cfg };
  if (m.kind === 'delete') delete out[key];
  else if (m.kind === 'set') Object.defineProperty(out, m.pick % 3 === 0 ? m.name : key, { value: m.value, enumerable: true, writable: true, configurable: true });
  else if (m.kind === 'rename') {
    out[`${key}_`] = out[key];
    delete out[key];
  } else return { model_type: cfg.model_type, [m.name]: out };
  return out;
}

const mutatedConfig = fc.tuple(fc.constantFrom(...configs), fc.array(mutation, { minLength: 1, maxLength: 5 })).map(([c, ms]) => ms.reduce(mutate, c));

/** The arch as a custom model on default settings, in inference or training. */
function checkArch(arch: ModelArch, mode: string): void {
  const p = countParams(arch);
  assertFinite('countParams', p);
  expect(p.total).toBeGreaterThan(0);
  expect(p.active).toBeLessThanOrEqual(p.total);
  const parsed = parseScenario({ model: 'custom', mode, prompt: '512', seq: '512' }, { customArch: arch });
  if (parsed.errors.length > 0) return;
  const r = estimate(parsed.scenario);
  assertFinite('estimate', r);
  if (r.ok) expect(r.value.deviceBytes).toBeGreaterThan(0);
}

function check(input: unknown, training = false): void {
  const r: Result<ModelArch> = timed('parseHfConfig', LIMIT_MS, () => parseHfConfig(input));
  assertFinite('parseHfConfig', r);
  if (r.ok) checkArch(r.value, training ? 'training' : 'inference');
  else for (const e of r.errors) expect(e.message.length).toBeGreaterThan(0);
}

describe(`config.json import fuzz (${RUNS} cases)`, () => {
  test('arbitrary JSON, preset configs with keys deleted / renamed / nested / hostile, and edited config text', () => {
    const input = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.json({ maxDepth: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), hostile),
      { weight: 3, arbitrary: mutatedConfig },
      { weight: 2, arbitrary: mutated(fc.constantFrom(...configs.map((c) => JSON.stringify(c)))) },
    );
    fc.assert(fc.property(input, fc.boolean(), check), { numRuns: RUNS });
  });
});
