import fc from 'fast-check';
import { describe, test } from 'vitest';
import { estimateNetwork, type NetworkEstimate } from '../../../src/core/layers/estimate';
import { importTorchRepr } from '../../../src/core/layers/repr-import';
import { validateNetwork } from '../../../src/core/layers/validate';
import { resnet50Repr } from './torch-repr-text';

const RUNS = 1000;

function finite(e: NetworkEstimate): boolean {
  const nums = [
    e.allocatedBytes,
    e.reservedBytes,
    e.deviceBytes,
    e.flops,
    e.params.total,
    ...e.terms.map((t) => t.bytes),
    ...e.layers.flatMap((r) => [r.params, r.outputBytes, r.savedBytes, r.flops, ...r.outShape]),
  ];
  return nums.every((n) => Number.isFinite(n) && n >= 0);
}

const small = fc.integer({ min: 1, max: 8 });
const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ kind: fc.constant('linear'), in: small, out: small, bias: fc.boolean() }),
  fc.record({
    kind: fc.constant('conv2d'),
    in: small,
    out: small,
    kernel: fc.integer({ min: 1, max: 3 }),
    stride: fc.integer({ min: 1, max: 2 }),
    padding: fc.integer({ min: 0, max: 1 }),
    groups: fc.constantFrom(1, 2),
  }),
  fc.record({ kind: fc.constant('batchnorm2d'), features: small }),
  fc.record({ kind: fc.constantFrom('relu', 'gelu', 'silu', 'sigmoid', 'tanh', 'relu6'), inplace: fc.boolean() }),
  fc.record({ kind: fc.constant('maxpool2d'), kernel: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('dropout'), p: fc.constantFrom(0, 0.1, 0.5) }),
  fc.record({ kind: fc.constantFrom('flatten', 'tokens', 'select') }),
  fc.record({ kind: fc.constant('layernorm'), shape: fc.array(small, { minLength: 1, maxLength: 2 }) }),
  fc.record({ kind: fc.constant('mha'), embed: fc.constantFrom(4, 8), heads: fc.constantFrom(1, 2, 3) }),
  fc.record({ kind: fc.constant('adaptiveavgpool2d'), out: fc.integer({ min: 1, max: 2 }) }),
);
const layerArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  layer: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    leaf,
    leaf,
    fc.record({ kind: fc.constant('block'), merge: fc.constantFrom('add', 'concat'), body: fc.array(tie('layer'), { maxLength: 3 }), shortcut: fc.array(tie('layer'), { maxLength: 2 }) }),
    fc.record({ kind: fc.constant('repeat'), times: fc.integer({ min: 0, max: 3 }), body: fc.array(tie('layer'), { maxLength: 2 }) }),
  ),
})).layer;

describe('property: layer lists never throw, never give NaN', () => {
  test('validateNetwork accepts or names problems for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = validateNetwork(v, [3, 8, 8]);
        return r.ok || r.errors.length > 0;
      }),
      { numRuns: RUNS },
    );
  });

  test('random layer lists (valid fields, arbitrary wiring): an estimate with finite numbers or a named misfit', () => {
    const shape = fc.oneof(
      fc.tuple(small, small, small).map((t) => [...t]),
      fc.tuple(small, small).map((t) => [...t]),
      small.map((n) => [n]),
    );
    fc.assert(
      fc.property(
        fc.array(layerArb, { minLength: 1, maxLength: 6 }),
        shape,
        fc.constantFrom('training', 'inference'),
        fc.constantFrom('fp32', 'amp-bf16', 'bf16'),
        fc.constantFrom('none', 'full'),
        fc.integer({ min: 1, max: 64 }),
        (layers, input, mode, precision, gradCkpt, batch) => {
          const v = validateNetwork({ layers, input });
          if (!v.ok) return true;
          const r = estimateNetwork(v.value, { mode: mode, precision: precision, optimizer: 'adamw', gradCkpt: gradCkpt, batch });
          return r.ok ? finite(r.value) : r.errors.length === 1 && r.errors[0].message.length > 0;
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('fields of the wrong type are rejected by validation, never reach the walker', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            kind: fc.constantFrom('linear', 'conv2d', 'block', 'repeat', 'layernorm'),
            in: fc.anything(),
            out: fc.anything(),
            kernel: fc.anything(),
            body: fc.anything(),
            merge: fc.anything(),
            times: fc.anything(),
            shape: fc.anything(),
          },
          { requiredKeys: ['kind'] },
        ),
        (l) => {
          const v = validateNetwork({ layers: [l], input: [3, 8, 8] });
          if (!v.ok) return true;
          const r = estimateNetwork(v.value, { mode: 'training', precision: 'fp32', optimizer: 'sgd', gradCkpt: 'none', batch: 2 });
          return !r.ok || finite(r.value);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('property: shape-consistent conv nets', () => {
  type Op = { t: 'conv'; out: number; k: number; s: number } | { t: 'bn' } | { t: 'relu'; inplace: boolean } | { t: 'pool' } | { t: 'res' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ t: fc.constant('conv' as const), out: small, k: fc.constantFrom(1, 3), s: fc.constantFrom(1, 2) }),
    fc.constant({ t: 'bn' as const }),
    fc.record({ t: fc.constant('relu' as const), inplace: fc.boolean() }),
    fc.constant({ t: 'pool' as const }),
    fc.constant({ t: 'res' as const }),
  );

  /** Build the layers while tracking C×H×W, and count parameters with the §7.1 formulas. */
  function build(ops: Op[], c0: number, hw: number) {
    const layers: Record<string, unknown>[] = [];
    let c = c0;
    let h = hw;
    let P = 0;
    for (const o of ops) {
      if (o.t === 'conv') {
        layers.push({ kind: 'conv2d', in: c, out: o.out, kernel: o.k, stride: o.s, padding: (o.k - 1) / 2 });
        P += o.out * c * o.k * o.k + o.out;
        h = Math.floor((h + (o.k - 1) - (o.k - 1) - 1) / o.s) + 1;
        c = o.out;
      } else if (o.t === 'bn') {
        layers.push({ kind: 'batchnorm2d', features: c });
        P += 2 * c;
      } else if (o.t === 'relu') layers.push({ kind: 'relu', inplace: o.inplace });
      else if (o.t === 'pool' && h >= 2) {
        layers.push({ kind: 'maxpool2d', kernel: 2 });
        h = Math.floor(h / 2);
      } else if (o.t === 'res') {
        layers.push({ kind: 'block', merge: 'add', inplace: true, body: [{ kind: 'conv2d', in: c, out: c, kernel: 3, padding: 1, bias: false }] });
        P += c * c * 9;
      }
    }
    layers.push({ kind: 'flatten' }, { kind: 'linear', in: c * h * h, out: 10 });
    P += c * h * h * 10 + 10;
    return { layers, P };
  }

  test('they always estimate: exact parameter count, finite bytes, allocated grows with the batch', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 10 }),
        small,
        fc.integer({ min: 1, max: 32 }),
        fc.integer({ min: 1, max: 16 }),
        fc.constantFrom('fp32', 'amp-fp16', 'bf16'),
        fc.constantFrom('none', 'full'),
        (ops, c0, hw, batch, precision, gradCkpt) => {
          const { layers, P } = build(ops, c0, hw);
          const v = validateNetwork({ layers, input: [c0, hw, hw] });
          if (!v.ok) return false;
          const o = { mode: 'training' as const, precision: precision as 'fp32', optimizer: 'adamw' as const, gradCkpt: gradCkpt as 'none' };
          const a = estimateNetwork(v.value, { ...o, batch });
          const b = estimateNetwork(v.value, { ...o, batch: batch + 1 });
          return a.ok && b.ok && a.value.params.total === P && finite(a.value) && b.value.allocatedBytes > a.value.allocatedBytes;
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('property: print(model) import never throws', () => {
  const lines = resnet50Repr().split('\n');

  test('any text: a network (maybe empty) plus notes; estimates are finite when they fit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const imp = importTorchRepr(text, [3, 32, 32]);
        const r = estimateNetwork(imp.network, { mode: 'training', precision: 'fp32', optimizer: 'adamw', gradCkpt: 'none', batch: 1 });
        return Array.isArray(imp.unparsed) && (!r.ok || finite(r.value));
      }),
      { numRuns: RUNS },
    );
  });

  test('a real-format ResNet-50 repr with lines dropped, duplicated or cut', () => {
    const edit = fc.array(fc.tuple(fc.nat(lines.length - 1), fc.constantFrom('drop', 'dup', 'cut')), { maxLength: 6 });
    fc.assert(
      fc.property(edit, fc.nat(40), (edits, cut) => {
        const ls = [...lines];
        for (const [i, op] of edits) {
          if (op === 'drop') ls.splice(i % ls.length, 1);
          else if (op === 'dup') ls.splice(i % ls.length, 0, ls[i % ls.length]);
          else ls[i % ls.length] = ls[i % ls.length].slice(0, cut);
        }
        const imp = importTorchRepr(ls.join('\n'), [3, 64, 64]);
        const r = estimateNetwork(imp.network, { mode: 'inference', precision: 'amp-fp16', optimizer: 'adamw', gradCkpt: 'none', batch: 2 });
        return !r.ok || finite(r.value);
      }),
      { numRuns: RUNS },
    );
  });

  test('generated repr lines with random numbers', () => {
    const lineArb = fc.oneof(
      fc.tuple(small, small, fc.integer({ min: 0, max: 3 })).map(([i, o, k]) => `  (c): Conv2d(${i}, ${o}, kernel_size=(${k}, ${k}), stride=(1, 1))`),
      fc.tuple(small, small).map(([i, o]) => `  (l): Linear(in_features=${i}, out_features=${o}, bias=True)`),
      small.map((c) => `  (bn): BatchNorm2d(${c}, eps=1e-05)`),
      fc.constantFrom(
        '  (r): ReLU(inplace=True)',
        '  (s): Sequential(',
        '  )',
        '  (p): MaxPool2d(kernel_size=2, stride=2)',
        '  (0-3): 4 x Linear(in_features=4, out_features=4, bias=True)',
        '  (b): Bottleneck(',
        '  (d): Dropout(p=nan)',
      ),
    );
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 12 }), (ls) => {
        const imp = importTorchRepr(['Net(', ...ls, ')'].join('\n'), [4, 8, 8]);
        const r = estimateNetwork(imp.network, { mode: 'training', precision: 'bf16', optimizer: 'lion', gradCkpt: 'full', batch: 3 });
        return !r.ok || finite(r.value);
      }),
      { numRuns: RUNS },
    );
  });
});
