import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { applyEdits, editsText, parseEdits, pushEdit, type EditOp, type Step } from '../../../src/ui/layers/net-edits';
import { netPairs, parseShape, presetState, readNet } from '../../../src/ui/layers/net-url';
import { replaceViewPairs } from '../../../src/state/url-query';
import type { LayerSpec } from '../../../src/core/layers/spec';

const at = (...i: (number | string)[]): Step[] => i.map((x) => (typeof x === 'number' ? { list: 'body', i: x } : { list: x[0] === 's' ? 'shortcut' : 'post', i: Number(x.slice(1)) }));

describe('net.* link state', () => {
  test('a plain ResNet-50 link is just the preset id; edits travel as operations, not layers', () => {
    expect(netPairs(presetState('resnet-50'))).toEqual([['net.p', 'resnet-50']]);
    const s = { ...presetState('resnet-50'), batch: 64, edits: [{ op: 'set', at: at(4, 0, 's0', 0), fields: { kernel: 3, padding: 1 } }] as EditOp[] };
    expect(netPairs(s)).toEqual([
      ['net.p', 'resnet-50'],
      ['net.e', '4.0.s0.0(kernel:3,padding:1)'],
      ['net.b', '64'],
    ]);
    const query = replaceViewPairs('?v=1&view=layers', 'net.', netPairs(s));
    expect(query).toBe('v=1&view=layers&net.p=resnet-50&net.e=4.0.s0.0(kernel:3,padding:1)&net.b=64');
  });

  test('state round-trips through the link for every setting', () => {
    const s = {
      ...presetState('vit-b-16'),
      input: [3, 384, 384],
      batch: 7,
      mode: 'inference' as const,
      precision: 'amp-bf16' as const,
      optimizer: 'sgd-momentum' as const,
      ckpt: true,
      gpus: ['h100-sxm', '24gib'],
      edits: [
        { op: 'del', at: at(5) },
        { op: 'ins', at: at(0), fields: { kind: 'layernorm', shape: [224] } },
        { op: 'up', at: at(3, 1) },
      ] as EditOp[],
    };
    const back = readNet(Object.fromEntries(netPairs(s)));
    expect(back.ignored).toEqual([]);
    expect(back.state).toEqual(s);
  });

  test('a custom (imported) list travels in the terse text form with its input shape', () => {
    const layers: LayerSpec[] = [
      { kind: 'flatten', name: 'flatten' },
      { kind: 'linear', name: 'fc', in: 784, out: 10 },
    ];
    const s = { ...presetState(), preset: 'custom', custom: { layers, input: [1, 28, 28] }, input: [1, 28, 28] };
    expect(netPairs(s)).toEqual([
      ['net.p', 'custom'],
      ['net.l', 'flatten@flatten; linear@fc 784 10'],
      ['net.in', '1x28x28'],
    ]);
    expect(readNet(Object.fromEntries(netPairs(s))).state).toEqual(s);
    const bad = readNet({ 'net.p': 'custom', 'net.l': 'linear -3' });
    expect(bad.ignored).toEqual(['net.l']);
    expect(bad.state.preset).toBe('resnet-50');
  });

  test('other pairs of the query are kept verbatim; old net.* pairs are replaced', () => {
    expect(replaceViewPairs('?v=1&model=meta-llama%2FLlama-2-7b-hf&net.b=4&lang=zh&net%2Ep=x', 'net.', [['net.p', 'vgg-16']])).toBe('v=1&model=meta-llama%2FLlama-2-7b-hf&lang=zh&net.p=vgg-16');
  });

  test('unusable values fall back to defaults and are named', () => {
    const r = readNet({ 'net.p': 'resnet-9000', 'net.b': '0', 'net.m': 'dreaming', 'net.in': '3x0x2', 'net.g': 'rtx-4090,warp-drive', 'net.e': '4(in:3)~zz~x' });
    expect(r.state.batch).toBe(32);
    expect(r.state.gpus).toEqual(['rtx-4090']);
    expect(r.state.edits).toEqual([{ op: 'set', at: at(4), fields: { in: 3 } }]);
    expect(r.ignored).toEqual(['net.in=3x0x2', 'net.p=resnet-9000', 'net.e:zz', 'net.e:x', 'net.b=0', 'net.m=dreaming', 'net.g:warp-drive']);
  });

  test('any text in any net.* key yields a usable state, never an exception', () => {
    const keys = ['net.p', 'net.l', 'net.e', 'net.in', 'net.b', 'net.m', 'net.pr', 'net.o', 'net.ck', 'net.g'];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), fc.string({ maxLength: 60 })), (views) => {
        const { state } = readNet(views);
        expect(Number.isInteger(state.batch) && state.batch >= 1).toBe(true);
        expect(state.input.every((v) => Number.isInteger(v) && v >= 1)).toBe(true);
      }),
    );
  });

  test('shapes read as 3x224x224, 3×224×224 or [3, 224, 224]', () => {
    expect(parseShape('3x224x224')).toEqual([3, 224, 224]);
    expect(parseShape('3×224×224')).toEqual([3, 224, 224]);
    expect(parseShape('[3, 224, 224]')).toEqual([3, 224, 224]);
    expect(parseShape('3x-1')).toBeNull();
    expect(parseShape('')).toBeNull();
  });
});

describe('edit operations', () => {
  const base: LayerSpec[] = [{ kind: 'conv2d', name: 'c', in: 3, out: 8, kernel: 3 }, { kind: 'block', name: 'b', merge: 'add', body: [{ kind: 'relu' }], shortcut: [] }, { kind: 'flatten' }];

  test('delete, insert, move up and set apply in order, on a copy', () => {
    const ops: EditOp[] = [
      { op: 'ins', at: at(1, 's0'), fields: { kind: 'batchnorm2d', features: 8 } },
      { op: 'up', at: at(2) },
      { op: 'set', at: at(0), fields: { out: 16 } },
      { op: 'del', at: at(2, 0) },
    ];
    const { layers, skipped } = applyEdits(base, ops);
    expect(skipped).toEqual([]);
    expect(layers.map((l) => l.kind)).toEqual(['conv2d', 'flatten', 'block']);
    expect(layers[0]).toEqual({ kind: 'conv2d', name: 'c', in: 3, out: 16, kernel: 3 });
    expect(layers[2]).toMatchObject({ body: [], shortcut: [{ kind: 'batchnorm2d', features: 8 }] });
    expect(base[0]).toMatchObject({ out: 8 });
  });

  test('a new kind replaces the layer but keeps its name; missing addresses are skipped', () => {
    const { layers, skipped } = applyEdits(base, [
      { op: 'set', at: at(0), fields: { kind: 'linear', in: 4, out: 4 } },
      { op: 'del', at: at(9) },
      { op: 'up', at: at(0) },
    ]);
    expect(layers[0]).toEqual({ name: 'c', kind: 'linear', in: 4, out: 4 });
    expect(skipped).toEqual(['x9', 'u0']);
  });

  test('successive changes to one layer fold into one operation', () => {
    let ops: EditOp[] = [];
    ops = pushEdit(ops, { op: 'set', at: at(0), fields: { out: 16 } });
    ops = pushEdit(ops, { op: 'set', at: at(0), fields: { kernel: 5 } });
    ops = pushEdit(ops, { op: 'set', at: at(1), fields: { merge: 'concat' } });
    expect(editsText(ops)).toBe('0(out:16,kernel:5)~1(merge:concat)');
  });

  test('the text form round-trips any operation list', () => {
    const step = fc.record({ list: fc.constantFrom('body' as const, 'shortcut' as const, 'post' as const), i: fc.nat(999) });
    const addr = fc.tuple(fc.nat(999), fc.array(step, { maxLength: 3 })).map(([i, rest]): Step[] => [{ list: 'body', i }, ...rest]);
    const value = fc.oneof(fc.nat(100000), fc.boolean(), fc.constantFrom('relu', 'gelu', 'add'), fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 2, maxLength: 4 }));
    const fields = fc.dictionary(fc.constantFrom('in', 'out', 'kernel', 'bias', 'merge', 'stride'), value, { minKeys: 1 });
    const op: fc.Arbitrary<EditOp> = fc.oneof(
      fc.record({ op: fc.constant('set' as const), at: addr, fields }),
      fc.record({ op: fc.constant('del' as const), at: addr }),
      fc.record({ op: fc.constant('up' as const), at: addr }),
      fc.record({ op: fc.constant('ins' as const), at: addr, fields: fields.map((f) => ({ ...f, kind: 'relu' })) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 6 }), (ops) => {
        expect(parseEdits(editsText(ops))).toEqual({ ops, bad: [] });
      }),
    );
  });
});
