import { describe, expect, test } from 'vitest';
import { NETWORK_PRESETS } from '../../../src/core/layers/presets';
import type { LayerSpec } from '../../../src/core/layers/spec';
import { chartUnits, flatten, nodeForPath } from '../../../src/ui/layers/net-tree';
import { computeNet } from '../../../src/ui/layers/use-network';
import { presetState } from '../../../src/ui/layers/net-url';

describe('layer table tree', () => {
  test.each(NETWORK_PRESETS.map((p) => [p.id, p.params] as const))('%s: rows add up to the published parameter count', (id, published) => {
    const r = computeNet(presetState(id));
    expect(r.error).toBeNull();
    expect(r.tree.reduce((a, n) => a + n.totals.params, 0)).toBe(published);
    // every per-layer row of the estimate lands on exactly one node: FLOPs and saved bytes add up
    expect(r.tree.reduce((a, n) => a + n.totals.flops, 0)).toBe(r.estimate!.flops);
    expect(r.tree.reduce((a, n) => a + n.totals.saved, 0)).toBe(r.estimate!.layers.reduce((a, l) => a + l.savedBytes, 0));
  });

  test('ResNet-50 bottleneck: body, shortcut, the residual add and the ReLU after it, in forward order', () => {
    const r = computeNet(presetState('resnet-50'));
    const block = flatten(r.tree).find((n) => n.path === 'layer1.0')!;
    expect(block.children!.map((c) => `${c.path}:${c.branch}`)).toEqual([
      'layer1.0.conv1:body',
      'layer1.0.bn1:body',
      'layer1.0.relu:body',
      'layer1.0.conv2:body',
      'layer1.0.bn2:body',
      'layer1.0.relu:body',
      'layer1.0.conv3:body',
      'layer1.0.bn3:body',
      'layer1.0.downsample:shortcut',
      'layer1.0.add:body',
      'layer1.0.relu:post',
    ]);
    // torchvision: 64·56·56 in, 256·56·56 out of the first bottleneck
    expect(block.inShape).toEqual([64, 56, 56]);
    expect(block.outShape).toEqual([256, 56, 56]);
    // 16 bottlenecks + conv1, bn1, relu, maxpool, avgpool, flatten, fc
    expect(chartUnits(r.tree)).toHaveLength(16 + 7);
  });

  test('chart bars are recognisable blocks: MobileNetV2 features.0–18, the 12 ViT-B/16 encoder layers', () => {
    // torchvision mobilenet_v2: features has 19 modules, then avgpool, flatten, classifier (dropout, linear)
    const mob = chartUnits(computeNet(presetState('mobilenet-v2')).tree).map((n) => n.path);
    expect(mob).toEqual([...Array.from({ length: 19 }, (_, i) => `features.${i}`), 'avgpool', 'flatten', 'classifier.0', 'classifier.1']);
    const vit = chartUnits(computeNet(presetState('vit-b-16')).tree).map((n) => n.path);
    expect(vit.filter((p) => p.startsWith('encoder.layers.'))).toEqual(Array.from({ length: 12 }, (_, i) => `encoder.layers.encoder_layer_${i}`));
  });

  test('a repeat shows one copy; a misfit in a later copy is shown on the repeat', () => {
    const layers: LayerSpec[] = [{ kind: 'flatten' }, { kind: 'repeat', name: 'blocks', times: 3, body: [{ kind: 'linear', name: 'fc', in: 4, out: 8 }] }];
    const s = { ...presetState(), preset: 'custom', custom: { layers, input: [4] }, input: [4] };
    const r = computeNet(s);
    // copy 0 takes 4 features; copy 1 receives 8
    expect(r.error?.message).toMatch(/blocks\.1/);
    expect(r.error?.nodeId).toBe('1');
    const ok = computeNet({ ...s, custom: { layers: [{ kind: 'repeat', name: 'blocks', times: 3, body: [{ kind: 'linear', in: 4, out: 4 }] }], input: [4] } });
    expect(ok.tree[0].copies).toBe(3);
    expect(ok.tree[0].children).toHaveLength(1);
    expect(ok.tree[0].totals.params).toBe(3 * (4 * 4 + 4));
    expect(nodeForPath(ok.tree, 'blocks.2')?.id).toBe('0');
  });

  test('a bad argument is placed on the layer it belongs to', () => {
    const s = { ...presetState('cnn'), edits: [{ op: 'set' as const, at: [{ list: 'body' as const, i: 2 }], fields: { kernel: 0 } }] };
    const r = computeNet(s);
    expect(r.error).toMatchObject({ message: 'layers[2].kernel: expected a positive integer or [h, w]', nodeId: '2' });
  });
});
