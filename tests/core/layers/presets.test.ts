import { describe, expect, test } from 'vitest';
import { analyze } from '../../../src/core/layers/analyze';
import { findNetworkPreset, NETWORK_PRESETS } from '../../../src/core/layers/presets';

const FP32 = { compute: 4, fp32: 4, param: 4, input: 4 };

function run(id: string) {
  const r = analyze(findNetworkPreset(id)!.build(), FP32);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}
const row = (id: string, path: string) => run(id).rows.find((r) => r.path === path)!;
/** Sum of params of rows under a dotted prefix. */
const paramsUnder = (id: string, prefix: string) =>
  run(id)
    .rows.filter((r) => r.path === prefix || r.path.startsWith(`${prefix}.`))
    .reduce((s, r) => s + r.params, 0);

describe('preset parameter counts (published, docs/reference/catalogues.md §3 / torchvision)', () => {
  test.each([
    ['resnet-50', 25_557_032],
    ['vgg-16', 138_357_544],
    ['mobilenet-v2', 3_504_872],
    ['vit-b-16', 86_567_656],
  ])('%s has %i parameters', (id, n) => {
    expect(run(id).params).toBe(n);
  });

  test('PyTorch quickstart MLP: 784·512+512 + 512·512+512 + 512·10+10', () => {
    expect(run('mlp').params).toBe(784 * 512 + 512 + 512 * 512 + 512 + 512 * 10 + 10);
  });

  test('pytorch/examples MNIST CNN: conv 1→32, 32→64 (3×3), fc 9216→128→10', () => {
    expect(run('cnn').params).toBe(1 * 32 * 9 + 32 + 32 * 64 * 9 + 64 + 9216 * 128 + 128 + 128 * 10 + 10);
  });

  test('every preset declares the count the layers give', () => {
    for (const p of NETWORK_PRESETS) expect(run(p.id).params).toBe(p.params);
  });

  test('ResNet-50 breakdown per stage (docs/reference/catalogues.md §3)', () => {
    expect(paramsUnder('resnet-50', 'conv1') + paramsUnder('resnet-50', 'bn1')).toBe(9_536);
    expect(paramsUnder('resnet-50', 'layer1')).toBe(215_808);
    expect(paramsUnder('resnet-50', 'layer2')).toBe(1_219_584);
    expect(paramsUnder('resnet-50', 'layer3')).toBe(7_098_368);
    expect(paramsUnder('resnet-50', 'layer4')).toBe(14_964_736);
    expect(paramsUnder('resnet-50', 'fc')).toBe(2_049_000);
  });

  test('VGG-16 conv part 14,714,688 and classifier 102,764,544 + 16,781,312 + 4,097,000', () => {
    expect(paramsUnder('vgg-16', 'features')).toBe(14_714_688);
    expect(row('vgg-16', 'classifier.0').params).toBe(102_764_544);
    expect(row('vgg-16', 'classifier.3').params).toBe(16_781_312);
    expect(row('vgg-16', 'classifier.6').params).toBe(4_097_000);
  });

  test('BatchNorm running stats are buffers, not parameters: ResNet-50 has 53 BN layers', () => {
    const a = run('resnet-50');
    // 1 stem + 16 blocks × 3 + 4 downsample = 53 BN layers, each with num_batches_tracked
    expect(a.intBuffers).toBe(53);
    expect(a.rows.filter((r) => r.kind === 'batchnorm2d').reduce((s, r) => s + r.buffers, 0)).toBe(a.buffers);
  });
});

describe('output shapes at 224×224 (PyTorch shape formulas)', () => {
  test('ResNet-50: 64×56×56 after the stem, 2048×7×7 before the pool, 1000 logits', () => {
    expect(row('resnet-50', 'maxpool').outShape).toEqual([64, 56, 56]);
    expect(row('resnet-50', 'layer1.2.relu#3').outShape).toEqual([256, 56, 56]);
    expect(row('resnet-50', 'avgpool').inShape).toEqual([2048, 7, 7]);
    expect(run('resnet-50').out).toEqual([1000]);
  });

  test('VGG-16: 512×7×7 after features, 25088 flattened, 1000 logits', () => {
    expect(row('vgg-16', 'features.30').outShape).toEqual([512, 7, 7]);
    expect(row('vgg-16', 'flatten').outShape).toEqual([25088]);
    expect(run('vgg-16').out).toEqual([1000]);
  });

  test('MobileNetV2: 32×112×112 stem, 1280×7×7 last conv, 1000 logits', () => {
    expect(row('mobilenet-v2', 'features.0.0').outShape).toEqual([32, 112, 112]);
    expect(row('mobilenet-v2', 'features.18.0').outShape).toEqual([1280, 7, 7]);
    expect(run('mobilenet-v2').out).toEqual([1000]);
  });

  test('ViT-B/16: 768×14×14 patches, 196 tokens + class token = 197×768, 1000 logits', () => {
    expect(row('vit-b-16', 'conv_proj').outShape).toEqual([768, 14, 14]);
    expect(row('vit-b-16', 'class_token').outShape).toEqual([197, 768]);
    expect(row('vit-b-16', 'encoder.ln').outShape).toEqual([197, 768]);
    expect(run('vit-b-16').out).toEqual([1000]);
  });

  test('MNIST CNN: 26 → 24 → 12 spatial, 64·12·12 = 9216 into fc1', () => {
    expect(row('cnn', 'conv2').outShape).toEqual([64, 24, 24]);
    expect(row('cnn', 'flatten').outShape).toEqual([9216]);
  });
});

describe('forward FLOPs (torchvision model docs, GFLOPS column = multiply-adds per image)', () => {
  // conv/linear multiply-adds dominate; norms and activations add a few percent
  test.each([
    ['resnet-50', 4.09],
    ['vgg-16', 15.47],
    ['mobilenet-v2', 0.3],
    ['vit-b-16', 17.56],
  ])('%s ≈ %f GMACs', (id, gmacs) => {
    const got = run(id).flops / 2 / 1e9;
    expect(Math.abs(got - gmacs) / gmacs).toBeLessThan(0.06);
  });
});
