import { describe, expect, test } from 'vitest';
import { analyze } from '../../../src/core/layers/analyze';
import { estimateNetwork } from '../../../src/core/layers/estimate';
import { findNetworkPreset } from '../../../src/core/layers/presets';
import { importTorchRepr } from '../../../src/core/layers/repr-import';
import { parseNetworkJson } from '../../../src/core/layers/validate';
import { mobilenetV2Repr, resnet50Repr, vitB16Repr } from './torch-repr-text';

const FP32 = { compute: 4, fp32: 4, param: 4, input: 4 };
const img = [3, 224, 224];

function params(text: string, input = img) {
  const imp = importTorchRepr(text, input);
  const a = analyze(imp.network, FP32);
  if (!a.ok) throw new Error(a.error);
  return { imp, a: a.value };
}

describe('print(model) import reproduces published counts', () => {
  test.each([
    ['resnet50', resnet50Repr, 25_557_032],
    ['mobilenet_v2', mobilenetV2Repr, 3_504_872],
    ['vit_b_16', vitB16Repr, 86_567_656],
  ] as const)('%s → %i parameters, 1000 logits, nothing unparsed', (_, text, n) => {
    const { imp, a } = params(text());
    expect(a.params).toBe(n);
    expect(a.out).toEqual([1000]);
    expect(imp.unparsed).toEqual([]);
  });

  test('imported ResNet-50 has the same training memory as the layer-list preset', () => {
    const o = { mode: 'training' as const, batch: 16, precision: 'amp-bf16' as const, optimizer: 'adamw' as const, gradCkpt: 'none' as const };
    const a = estimateNetwork(importTorchRepr(resnet50Repr(), img).network, o);
    const b = estimateNetwork(findNetworkPreset('resnet-50')!.build(), o);
    expect(a.ok && b.ok && a.value.allocatedBytes === b.value.allocatedBytes).toBe(true);
  });

  test('the assumptions are reported', () => {
    const codes = (t: string) => importTorchRepr(t, img).notes.map((n) => n.code);
    expect(codes(resnet50Repr())).toEqual(expect.arrayContaining(['repr.resblock', 'repr.flatten']));
    expect(codes(mobilenetV2Repr())).toEqual(expect.arrayContaining(['repr.invres', 'repr.globalPool']));
    expect(codes(vitB16Repr())).toEqual(expect.arrayContaining(['repr.vit', 'repr.heads']));
  });
});

describe('small torchvision-style reprs', () => {
  // a ResNet-18-style stem + one BasicBlock with a strided projection, old-style `ReLU(inplace)`
  const basic = `Net(
  (conv1): Conv2d(3, 16, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
  (bn1): BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
  (relu): ReLU(inplace)
  (layer1): Sequential(
    (0): BasicBlock(
      (conv1): Conv2d(16, 32, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)
      (bn1): BatchNorm2d(32, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
      (relu): ReLU(inplace=True)
      (conv2): Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
      (bn2): BatchNorm2d(32, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
      (downsample): Sequential(
        (0): Conv2d(16, 32, kernel_size=(1, 1), stride=(2, 2), bias=False)
        (1): BatchNorm2d(32, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
      )
    )
  )
  (avgpool): AdaptiveAvgPool2d(output_size=(1, 1))
  (fc): Linear(in_features=32, out_features=10, bias=True)
)`;

  test('BasicBlock net: counts from Conv/BN/Linear formulas, shapes 32×16×16 after the block', () => {
    const { imp, a } = params(basic, [3, 32, 32]);
    const expected = 3 * 16 * 9 + 2 * 16 + 16 * 32 * 9 + 2 * 32 + 32 * 32 * 9 + 2 * 32 + 16 * 32 + 2 * 32 + 32 * 10 + 10;
    expect(a.params).toBe(expected);
    expect(a.rows.find((r) => r.path === 'avgpool')!.inShape).toEqual([32, 16, 16]);
    expect(a.rows.some((r) => r.kind === 'add')).toBe(true);
    expect(a.rows.find((r) => r.path === 'relu')!.kind).toBe('relu');
    expect(imp.unparsed).toEqual([]);
  });

  test('ModuleList collapse "(0-2): 3 x Linear" expands to three layers', () => {
    const text = `MLP(
  (layers): ModuleList(
    (0-2): 3 x Linear(in_features=64, out_features=64, bias=True)
  )
)`;
    const { a } = params(text, [64]);
    expect(a.params).toBe(3 * (64 * 64 + 64));
    expect(a.rows.length).toBe(3);
  });

  test('unreadable lines and unmodelled modules are listed with line numbers, the rest still imports', () => {
    const text = `Net(
  (fc1): Linear(in_features=10, out_features=20, bias=True)
  this line is noise
  (norm): RMSNorm((20,), eps=None, elementwise_affine=True)
  (fc2): Linear(in_features=20, out_features=5, bias=False)
)`;
    const { imp, a } = params(text, [10]);
    expect(imp.unparsed.map((u) => u.line)).toEqual([3, 4]);
    expect(a.params).toBe(10 * 20 + 20 + 20 * 5);
  });

  test('absurd nesting (20,000 containers) is cut at 64 levels and listed, not a stack overflow', () => {
    const text = `${Array.from({ length: 20_000 }, (_, i) => `(m${i}): Sequential(`).join('\n')}\n(fc): Linear(in_features=4, out_features=4, bias=True)`;
    const imp = importTorchRepr(text, [4]);
    expect(imp.unparsed.length).toBe(20_000 - 64);
    expect(analyze(imp.network, FP32).ok).toBe(true);
  });

  test('nn.TransformerEncoderLayer(512, 8): 4E²+4E + 2·(E·F) + F + E + 4E parameters', () => {
    const text = `TransformerEncoderLayer(
  (self_attn): MultiheadAttention(
    (out_proj): NonDynamicallyQuantizableLinear(in_features=512, out_features=512, bias=True)
  )
  (linear1): Linear(in_features=512, out_features=2048, bias=True)
  (dropout): Dropout(p=0.1, inplace=False)
  (linear2): Linear(in_features=2048, out_features=512, bias=True)
  (norm1): LayerNorm((512,), eps=1e-05, elementwise_affine=True)
  (norm2): LayerNorm((512,), eps=1e-05, elementwise_affine=True)
  (dropout1): Dropout(p=0.1, inplace=False)
  (dropout2): Dropout(p=0.1, inplace=False)
)`;
    const E = 512;
    const F = 2048;
    expect(params(text, [10, E]).a.params).toBe(4 * E * E + 4 * E + 2 * E * F + F + E + 4 * E);
  });
});

describe('JSON layer lists', () => {
  test('a valid list parses and estimates', () => {
    const r = parseNetworkJson('{"input":[1,28,28],"layers":[{"kind":"flatten"},{"kind":"linear","in":784,"out":10}]}');
    expect(r.ok && r.value.layers.length).toBe(2);
  });

  test('every problem is named by its JSON path', () => {
    const r = parseNetworkJson('[{"kind":"conv2d","in":3,"out":0,"kernel":3},{"kind":"nope"},{"kind":"block","merge":"add","body":[{"kind":"relu","inplace":"yes"}]}]', [3, 8, 8]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.map((e) => e.key)).toEqual(['layers[0].out', 'layers[1].kind', 'layers[2].body[0].inplace']);
    }
  });

  test('bad JSON and a missing input shape are single clear errors', () => {
    const a = parseNetworkJson('{"layers": [');
    expect(!a.ok && a.errors[0].code).toBe('network.json');
    const b = parseNetworkJson('[{"kind":"relu"}]');
    expect(!b.ok && b.errors[0].key).toBe('input');
  });
});
