// Scenario records for fuzzing: every schema key (src/core/scenario) with values drawn from its
// own kind — enum members, integers across the whole range (edges included), counts, presets,
// GPUs — plus the occasional hostile string, so both valid and invalid scenarios come out.
import fc from 'fast-check';
import { ARCH_FIELDS, SCENARIO_FIELDS, type FieldKind } from '../../src/core/scenario';
import type { ArchKind } from '../../src/core/scenario';
import { PRESETS } from '../../src/core/model/presets';
import { GPUS } from '../../src/core/gpus';

function intValue(min: number, max: number): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom(min, max, Math.min(max, min + 1), Math.min(max, 8), Math.min(max, 4096)), fc.integer({ min, max }), fc.integer({ min, max: Math.min(max, 256) })).map(String);
}

function valueFor(kind: FieldKind | ArchKind): fc.Arbitrary<string> {
  switch (kind.type) {
    case 'enum':
      return fc.constantFrom(...kind.values);
    case 'int':
      return 'nullToken' in kind && kind.nullToken ? fc.oneof(intValue(kind.min, kind.max), fc.constant(kind.nullToken)) : intValue(kind.min, kind.max);
    case 'float':
      return fc.double({ min: kind.min, max: kind.max, noNaN: true }).map((x) => x.toPrecision(3));
    case 'targets':
      return fc.oneof(
        fc.constant('all'),
        fc.subarray(['q', 'k', 'v', 'o', 'gate', 'up', 'down'], { minLength: 1 }).map((t) => t.join(',')),
      );
    case 'ratios':
      return fc.oneof(
        fc.constant('auto'),
        fc.array(fc.constantFrom('0', '1', '3', '0.5', '2.25'), { minLength: 1, maxLength: kind.maxCount }).map((w) => w.join(',')),
      );
    case 'count':
      return fc.constantFrom('7b', '350m', '1.5e9', '405b', '1t', '1000000000000000', '125m');
    case 'model':
      return fc.constantFrom(...PRESETS.map((p) => p.id), 'custom');
    case 'gpu':
      return fc.constantFrom(...GPUS.map((g) => g.id), '24GiB', '80GB', '1gib');
    case 'bool':
      return fc.constantFrom('true', 'false', '1', '0');
    case 'text':
      return fc.constantFrom('llama', 'qwen2', 'x.y-z_1');
  }
}

const hostile = fc.constantFrom('', '-1', '0', 'NaN', 'Infinity', '1e309', '1e-309', '0x10', ' 7 ', '1,5', 'null', '∞', '9'.repeat(25));

const FIELDS = [...SCENARIO_FIELDS.map((f) => ({ name: f.name, kind: f.kind })), ...ARCH_FIELDS.map((f) => ({ name: f.name, kind: f.kind }))];

/** One schema key with a value of its kind (1 in 10 hostile). */
export const pairArb: fc.Arbitrary<[string, string]> = fc
  .constantFrom(...FIELDS)
  .chain((f) => fc.oneof({ weight: 9, arbitrary: valueFor(f.kind) }, { weight: 1, arbitrary: hostile }).map((v): [string, string] => [f.name, v]));

/** A scenario record with up to `max` keys (later duplicates overwrite earlier ones). */
export function recordArb(max = 12): fc.Arbitrary<Record<string, string>> {
  return fc.array(pairArb, { maxLength: max }).map((pairs) => {
    const r: Record<string, string> = Object.create(null);
    for (const [k, v] of pairs) r[k] = v;
    return r;
  });
}
