// Fuzz: layer lists — the terse text form (src/core/layers/text.ts), layer JSON (validate.ts)
// and print(model) import (repr-import.ts). Inputs: random text, small valid layer texts, the
// MLP/CNN preset texts and real print(model) texts (windows of tests/core/layers/torch-repr-text.ts),
// with random edits, and torchinfo summaries likewise (its conv solver once looped forever on an
// edited summary; the input is pinned below). No throw, bounded time, finite output; an accepted list writes back to itself and
// estimates to finite, ordered totals.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { estimateNetwork } from '../../src/core/layers/estimate';
import { NETWORK_PRESETS } from '../../src/core/layers/presets';
import { importTorchRepr } from '../../src/core/layers/repr-import';
import { layerText, parseLayerText } from '../../src/core/layers/text';
import { parseNetworkJson } from '../../src/core/layers/validate';
import type { Network } from '../../src/core/layers/spec';
import { mobilenetV2Repr, resnet50Repr } from '../core/layers/torch-repr-text';
import { mnistTorchinfo, resnet50Torchinfo } from '../core/layers/torchinfo-text';
import { importTorchinfo } from '../../src/core/layers/torchinfo-import';
import { LIMIT_MS, RUNS, assertFinite, mutated, soup, timed } from './scan';

const small = (id: string) => NETWORK_PRESETS.find((p) => p.id === id)!.build();
const MLP = small('mlp');
const CNN = small('cnn');
/** Small valid texts for a [1, 8, 8] or [16] input, covering every container and option. */
const SMALL: [string, number[]][] = [
  [layerText(MLP.layers), MLP.input],
  [layerText(CNN.layers), CNN.input],
  ['conv2d 1 8 k3 p1 nobias; bn2d 8; relu!; add![conv2d 8 8 k3 p1 | | relu]; gap 1; flatten; linear 8 4', [1, 8, 8]],
  ['conv2d 1 4 k3 s2 d1 g1; gn 2 4; silu; cat[conv2d 4 4 k1 | conv2d 4 4 k1]; convt2d 8 2 k2 s2 op1; flatten; dropout 0.1; linear 648 2', [1, 8, 8]],
  ['emb 100 16; tokens; ln 16; mha 16 4; rep2[encoder 16 4 32 gelu prenorm drop0.1]; cls 16; pos 9 16; select; linear 16 3', [8]],
  ['linear 16 32; rep3[linear 32 32; gelu]; ln 32 noaffine; linear 32 4 nobias; sigmoid', [16]],
];
/** Regression (.tmp/requests/trust.md §4, since fixed): a name the JSON accepted that the text form could not write back. */
const NAME_WITH_SPACE = '{"layers":[{"kind":"flatten"},{"kind":"sequential","name":" stack","body":[{"kind":"linear","in":784,"out":10}]}],"input":[1,28,28]}';
/** Regression (.tmp/requests/trust.md §5, since fixed): an overflowing number in print(model) text was imported as Infinity. */
const OVERFLOW_REPR = 'Sequential(\n  (0): Conv2d(3, 8, kernel_size=(1, 1), stride=(1e309, 1), bias=False)\n)';
const textTokens = [
  'linear ',
  'conv2d ',
  'bn2d ',
  'relu',
  '!',
  '; ',
  'rep',
  '2',
  '[',
  ']',
  ' | ',
  'add',
  'cat',
  'seq',
  'k3 ',
  's2 ',
  'p1 ',
  'x',
  'flatten',
  'gap 1',
  'nobias',
  '@name',
  '16 ',
  '8 ',
  '0 ',
  '99999999999 ',
];

const inputArb: fc.Arbitrary<number[]> = fc.oneof(fc.constantFrom<number[]>([16], [8], [1, 8, 8], [3, 32, 32], [1, 28, 28]), fc.array(fc.integer({ min: 0, max: 64 }), { maxLength: 4 }));

/** A list the parser accepted: its text form is a fixed point (defaults are not written) and it estimates finitely. */
function checkNetwork(net: Network): void {
  const text = layerText(net.layers);
  const again = parseLayerText(text, net.input);
  expect(again.ok && layerText(again.value.layers)).toBe(text);
  const r = timed('estimateNetwork', LIMIT_MS, () => estimateNetwork(net, { mode: 'training', batch: 4, precision: 'amp-bf16', optimizer: 'adamw', gradCkpt: 'none' }));
  assertFinite('estimateNetwork', r);
  if (r.ok) {
    expect(r.value.reservedBytes).toBeGreaterThanOrEqual(r.value.allocatedBytes);
    expect(r.value.deviceBytes).toBeGreaterThanOrEqual(r.value.reservedBytes);
  }
}

function checkText(text: string, input: number[]): void {
  const r = timed('parseLayerText', LIMIT_MS, () => parseLayerText(text, input));
  assertFinite('parseLayerText', r);
  if (r.ok) checkNetwork(r.value);
  else expect(r.errors[0].message.length).toBeGreaterThan(0);
}

/** A window of `n` lines from a long real text (edits then break its nesting in new ways). */
const windowOf = (text: string, n: number) =>
  fc.nat().map((k) => {
    const lines = text.split('\n');
    const at = k % Math.max(1, lines.length - n);
    return lines.slice(at, at + n).join('\n');
  });
const reprArb = fc.oneof(
  windowOf(resnet50Repr(), 8),
  windowOf(mobilenetV2Repr(), 8),
  fc.constant('Sequential(\n  (0): Linear(in_features=16, out_features=8, bias=True)\n  (1): ReLU()\n  (2): Linear(in_features=8, out_features=2, bias=False)\n)'),
);

const torchinfoArb = fc.oneof(windowOf(resnet50Torchinfo(), 10), fc.constant(mnistTorchinfo()));
/** Found by this fuzzing: a zero input channel with an overflowing row made the conv solver loop forever. */
const TORCHINFO_LOOP =
  'Layer (type:depth-idx)  Output Shape  Param #\n│    │    └─Conv2d: 3-94                 [1, 256, 14, 14]          262,144\n│    │    └─ReLU: 3-96      1e309            : 3-96                   [1, 256, 14, 14]          --';

/** An import is finite and its network goes through the JSON validator without throwing (estimates are the text/JSON cases' job). */
function checkImport(label: string, imp: { network: Network; unparsed: unknown[] }): void {
  assertFinite(label, imp);
  assertFinite(`${label} validated`, parseNetworkJson(JSON.stringify(imp.network)));
}

describe(`layer list fuzz (${RUNS} cases each)`, () => {
  test('layer text: arbitrary text, token soup and edited valid small lists', () => {
    const edited = fc.constantFrom(...SMALL).chain(([t, i]) => mutated(fc.constant(t)).map((m) => [m, i] as const));
    const input = fc.oneof(fc.tuple(fc.oneof(fc.string({ maxLength: 200, unit: 'binary' }), soup(textTokens, 40)), inputArb), { weight: 2, arbitrary: edited });
    fc.assert(
      fc.property(input, ([t, i]) => checkText(t, i)),
      { numRuns: RUNS },
    );
  });

  test('layer JSON: arbitrary JSON and edited layer JSON', () => {
    const jsons = SMALL.map(([t, i]) => {
      const r = parseLayerText(t, i);
      return JSON.stringify(r.ok ? r.value : null);
    });
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 4 }), mutated(fc.constantFrom(...jsons))), (j) => {
        const r = timed('parseNetworkJson', LIMIT_MS, () => parseNetworkJson(j));
        assertFinite('parseNetworkJson', r);
        if (r.ok) checkNetwork(r.value);
      }),
      { numRuns: RUNS, examples: [[NAME_WITH_SPACE]] },
    );
  });

  test('print(model) import: real texts (windows) with random edits, and arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(mutated(reprArb), soup(['(', ')', ': ', 'Conv2d(', 'Linear(in_features=', 'out_features=', ', ', '\n  ', 'Sequential(', 'ReLU()', '8', '16'], 40)), inputArb, (t, i) => {
        checkImport(
          'importTorchRepr',
          timed('importTorchRepr', LIMIT_MS, () => importTorchRepr(t, i)),
        );
      }),
      { numRuns: RUNS, examples: [[OVERFLOW_REPR, [3, 8, 8]]] },
    );
  });

  test('torchinfo import: real summaries (windows) with random edits, and arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(mutated(torchinfoArb), soup(['│    ', '└─', 'Conv2d: ', 'Linear: ', '1-', '2-3', ' [1, 64, 56, 56] ', '--', ' 4,096', '\n', 'Total params: '], 40)), inputArb, (t, i) => {
        checkImport(
          'importTorchinfo',
          timed('importTorchinfo', LIMIT_MS, () => importTorchinfo(t, i)),
        );
      }),
      { numRuns: RUNS, examples: [[TORCHINFO_LOOP, [0, 28, 13]]] },
    );
  });
});
