import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { estimateNetwork, type NetworkOptions } from '../../../src/core/layers/estimate';
import { findNetworkPreset } from '../../../src/core/layers/presets';
import { importTorchinfo, isTorchinfo } from '../../../src/core/layers/torchinfo-import';
import { mnistTorchinfo, resnet50Torchinfo } from './torchinfo-text';

const o: NetworkOptions = { mode: 'training', batch: 8, precision: 'fp32', optimizer: 'adamw', gradCkpt: 'none' };

function est(text: string, input: number[]) {
  const imp = importTorchinfo(text, input);
  const r = estimateNetwork(imp.network, o);
  if (!r.ok) throw new Error(r.errors[0].message);
  return { imp, e: r.value };
}

describe('torchinfo summary import', () => {
  test('ResNet-50 (depth 3, downsample collapsed): 25,557,032 params, the footer agrees, same bytes as the preset', () => {
    const { imp, e } = est(resnet50Torchinfo(), [3, 224, 224]);
    expect(e.params.total).toBe(25_557_032);
    expect(imp.statedTotal).toBe(25_557_032);
    expect(imp.unparsed).toEqual([]);
    const preset = estimateNetwork(findNetworkPreset('resnet-50')!.build(), o);
    expect(preset.ok && preset.value.terms.find((t) => t.id === 'activations')!.bytes).toBe(e.terms.find((t) => t.id === 'activations')!.bytes);
  });

  test('MNIST Net: functional max_pool2d and flatten recovered from the shapes, 1,199,882 params', () => {
    const { imp, e } = est(mnistTorchinfo(), [1, 28, 28]);
    expect(e.params.total).toBe(1_199_882);
    expect(e.layers.map((l) => l.kind)).toEqual(['conv2d', 'conv2d', 'maxpool2d', 'dropout', 'flatten', 'linear', 'dropout', 'linear']);
    expect(imp.notes.map((n) => n.code)).toEqual(expect.arrayContaining(['torchinfo.pool', 'torchinfo.functional']));
  });

  test('conv arguments are solved from count and shapes: k7 s2 p3 without bias for the ResNet stem', () => {
    const l = importTorchinfo(resnet50Torchinfo(), [3, 224, 224]).network.layers[0];
    expect(l).toMatchObject({ kind: 'conv2d', in: 3, out: 64, kernel: 7, stride: 2, padding: 3, bias: false });
  });

  test('detection and unsolvable rows', () => {
    expect(isTorchinfo(mnistTorchinfo())).toBe(true);
    expect(isTorchinfo('Net(\n  (fc): Linear(in_features=1, out_features=1, bias=True)\n)')).toBe(false);
    const bad = mnistTorchinfo().replace('├─Conv2d: 1-1                            [1, 32, 26, 26]           320', '├─Conv2d: 1-1                            [1, 32, 26, 26]           321');
    const imp = importTorchinfo(bad, [1, 28, 28]);
    expect(imp.unparsed.map((u) => u.text)).toEqual([expect.stringMatching(/^Conv2d: cannot solve its arguments/)]);
  });

  // torchinfo summary(nn.Sequential(nn.Linear(20, 10)), input_size=(1, 20)): 20·10 weights + 10 biases = 210
  const linearTable = (outShape: string) =>
    [
      '==========================================================================================',
      'Layer (type:depth-idx)                   Output Shape              Param #',
      '==========================================================================================',
      'Sequential                               [1, 10]                   --',
      `├─Linear: 1-1                            ${outShape.padEnd(26)}210`,
      '==========================================================================================',
      'Total params: 210',
    ].join('\n');

  test('a Linear row is solved from its input and output width: 20 → 10 with bias (20·10 + 10 = 210)', () => {
    const imp = importTorchinfo(linearTable('[1, 10]'), [20]);
    expect(imp.network.layers).toEqual([{ kind: 'linear', in: 20, out: 10, bias: true }]);
    expect(imp.unparsed).toEqual([]);
  });

  test('a Linear row without a feature width (an empty input shape, a one-dimensional output) is skipped with a message, not read as undefined', () => {
    const noInput = importTorchinfo(linearTable('[1, 10]'), []);
    expect(noInput.network.layers).toEqual([]);
    expect(noInput.unparsed.map((u) => u.text)).toEqual(['Linear: cannot solve its arguments from [] → [10], skipped']);
    const noOutput = importTorchinfo(linearTable('[1]'), [20]);
    expect(noOutput.network.layers).toEqual([]);
    expect(noOutput.unparsed.map((u) => u.text)).toEqual(['Linear: cannot solve its arguments from [20] → [], skipped']);
  });

  test('property: any edit of a summary never throws and gives finite numbers', () => {
    const lines = resnet50Torchinfo().split('\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(lines.length - 1), fc.string({ maxLength: 20 })), { maxLength: 5 }), (edits) => {
        const ls = [...lines];
        for (const [i, s] of edits) ls[i] = ls[i].slice(0, s.length) + s;
        const imp = importTorchinfo(ls.join('\n'), [3, 64, 64]);
        const r = estimateNetwork(imp.network, o);
        return !r.ok || Number.isFinite(r.value.deviceBytes);
      }),
      { numRuns: 1000 },
    );
  });
});
