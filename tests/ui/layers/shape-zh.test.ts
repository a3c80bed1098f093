import { describe, expect, test } from 'vitest';
import { shapeMessageZh } from '../../../src/ui/layers/shape-zh';
import { computeNet } from '../../../src/ui/layers/use-network';
import { presetState } from '../../../src/ui/layers/net-url';
import type { EditOp } from '../../../src/ui/layers/net-edits';

const errorOf = (preset: string, ...edits: EditOp[]) => computeNet({ ...presetState(preset), edits }).error!.message;

describe('core problem messages in Chinese', () => {
  test('the messages the core really writes are matched whole', () => {
    // ResNet-50 layer1.0.conv2 told to expect 32 channels while conv1 gives 64
    expect(
      shapeMessageZh(
        errorOf('resnet-50', {
          op: 'set',
          at: [
            { list: 'body', i: 4 },
            { list: 'body', i: 0 },
            { list: 'body', i: 3 },
          ],
          fields: { in: 32 },
        }),
      ),
    ).toBe("层 'layer1.0.conv2'（conv2d）：需要 32 个输入通道，实际为 64");
    // MNIST CNN fc2 expecting 64 features where fc1 gives 128
    expect(shapeMessageZh(errorOf('cnn', { op: 'set', at: [{ list: 'body', i: 10 }], fields: { in: 64 } }))).toBe("层 'fc2'（linear）：最后一维应为 64，实际为 [128]");
    expect(shapeMessageZh(errorOf('cnn', { op: 'set', at: [{ list: 'body', i: 2 }], fields: { kernel: 0 } }))).toBe('layers[2].kernel：应为正整数或 [h, w]');
  });

  test('an unknown form stays as the core wrote it', () => {
    expect(shapeMessageZh("layer 'x' (linear): something new")).toBe("layer 'x' (linear): something new");
    expect(shapeMessageZh('plain words')).toBe('plain words');
  });
});
