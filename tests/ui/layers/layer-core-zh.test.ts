import { describe, expect, test } from 'vitest';
import { LAYER_PROBLEMS, type LayerProblemCode } from '../../../src/core/layers/problems';
import { IMPORT_NOTES_ZH, LAYER_PROBLEMS_ZH, noteWords, problemWords } from '../../../src/ui/layers/layer-core-zh';
import { IMPORT_NOTES, type ImportNoteCode } from '../../../src/core/layers/import-notes';
import { importTorchRepr } from '../../../src/core/layers/repr-import';
import { prepareNetwork } from '../../../src/core/layers/estimate';
import { computeNet } from '../../../src/ui/layers/use-network';
import { presetState } from '../../../src/ui/layers/net-url';
import type { EditOp } from '../../../src/ui/layers/net-edits';

const errorOf = (preset: string, ...edits: EditOp[]) => computeNet({ ...presetState(preset), edits }).error!;
// ResNet-50 layer1.0.conv2 told to expect 32 channels, while layer1.0.conv1 gives 64 (torchvision resnet.py Bottleneck: conv1 1×1 64→64)
const resnetConv2 = () =>
  errorOf('resnet-50', {
    op: 'set',
    at: [
      { list: 'body', i: 4 },
      { list: 'body', i: 0 },
      { list: 'body', i: 3 },
    ],
    fields: { in: 32 },
  });

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('layer problems are codes the page words in its language', () => {
  test('a shape misfit reads in English as PyTorch states the rule, and in Chinese from the same code', () => {
    const e = resnetConv2();
    expect(e.message).toBe("layer 'layer1.0.conv2' (conv2d): expects 32 input channels, got 64");
    expect(problemWords('en', e.problem)).toBe(e.message);
    expect(problemWords('zh', e.problem)).toBe("层 'layer1.0.conv2'（conv2d）：需要 32 个输入通道，实际为 64");
  });

  test('the MNIST CNN fc2 told to expect 64 features where fc1 gives 128, and a kernel of 0', () => {
    const fc2 = errorOf('cnn', { op: 'set', at: [{ list: 'body', i: 10 }], fields: { in: 64 } });
    expect(problemWords('zh', fc2.problem)).toBe("层 'fc2'（linear）：最后一维应为 64，实际为 [128]");
    const kernel = errorOf('cnn', { op: 'set', at: [{ list: 'body', i: 2 }], fields: { kernel: 0 } });
    expect(kernel.message).toBe('layers[2].kernel: expected a positive integer or [h, w]');
    expect(problemWords('zh', kernel.problem)).toBe('layers[2].kernel：应为正整数或 [h, w]');
  });

  test('a form the old sentence matcher missed (LayerNorm normalized_shape) is now translated', () => {
    // nn.LayerNorm(512) over ViT-B/16 tokens [197, 768]: normalized_shape must equal the trailing dims (torch.nn.LayerNorm docs)
    const r = prepareNetwork({ input: [197, 768], layers: [{ kind: 'layernorm', shape: [512], name: 'ln_1' }] }, 'fp32');
    expect(!r.ok && r.errors[0]?.message).toBe("layer 'ln_1' (layernorm): normalized shape [512] does not match input [197, 768]");
    expect(!r.ok && r.errors[0] && problemWords('zh', r.errors[0].problem)).toBe("层 'ln_1'（layernorm）：归一化形状 [512] 与输入 [197, 768] 不匹配");
  });

  test('every code has Chinese with exactly the placeholders of its English', () => {
    const codes = Object.keys(LAYER_PROBLEMS) as LayerProblemCode[];
    expect(Object.keys(LAYER_PROBLEMS_ZH).sort()).toEqual([...codes].sort());
    for (const c of codes) expect([c, placeholders(LAYER_PROBLEMS_ZH[c])]).toEqual([c, placeholders(LAYER_PROBLEMS[c])]);
  });
});

describe("the importers' assumptions read in Chinese", () => {
  test('a torchvision ResNet print(model) notes its residual blocks in both languages', () => {
    // torchvision resnet.py BasicBlock: out += identity, then relu (the importer cannot see forward, so it says so)
    const text = `ResNet(
  (conv1): Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)
  (layer1): Sequential(
    (0): BasicBlock(
      (conv1): Conv2d(64, 64, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
      (bn1): BatchNorm2d(64, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
      (relu): ReLU(inplace=True)
      (conv2): Conv2d(64, 64, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
      (bn2): BatchNorm2d(64, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
    )
  )
)`;
    const r = importTorchRepr(text, [3, 224, 224]);
    const note = r.notes.find((n) => n.code === 'repr.resblock');
    expect(note?.text).toBe('BasicBlock: residual add assumed (torchvision resnet.py), ReLU after each BN and after the add');
    expect(note && noteWords('zh', note)).toBe('BasicBlock：假定有残差相加（torchvision resnet.py），每个 BN 之后和相加之后各有一个 ReLU');
    expect(note && noteWords('en', note)).toBe(note?.text);
  });

  test('every note code has Chinese with exactly the placeholders of its English', () => {
    const codes = Object.keys(IMPORT_NOTES) as ImportNoteCode[];
    expect(Object.keys(IMPORT_NOTES_ZH).sort()).toEqual([...codes].sort());
    for (const c of codes) expect([c, placeholders(IMPORT_NOTES_ZH[c])]).toEqual([c, placeholders(IMPORT_NOTES[c])]);
  });
});
