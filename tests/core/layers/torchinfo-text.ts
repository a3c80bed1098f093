/**
 * Test data: torchinfo summary tables in the layout of TylerYep/torchinfo (default columns,
 * depth 3: rows in call order, `├─Type: depth-idx`, output shape with the batch dim, own
 * parameter count, footer "Total params"). Module trees: torchvision resnet50 and the
 * pytorch/examples MNIST Net (whose ReLU / max_pool2d / flatten are functional, so not rows).
 */

const fmt = (n: number) => (n === 0 ? '--' : n.toLocaleString('en-US'));

class Table {
  rows: string[] = [];
  idx = new Map<number, number>();
  row(depth: number, type: string, shape: number[], params = 0): void {
    const i = (this.idx.get(depth) ?? 0) + 1;
    this.idx.set(depth, i);
    const name = depth === 0 ? type : `${depth === 1 ? '' : `│    ${'│    '.repeat(depth - 2)}`}${depth === 1 ? '├─' : '└─'}${type}: ${depth}-${i}`;
    this.rows.push(`${name.padEnd(41)}${`[${[1, ...shape].join(', ')}]`.padEnd(26)}${fmt(params)}`);
  }
  text(total: number): string {
    const bar = '='.repeat(90);
    return [
      bar,
      `${'Layer (type:depth-idx)'.padEnd(41)}${'Output Shape'.padEnd(26)}Param #`,
      bar,
      ...this.rows,
      bar,
      `Total params: ${fmt(total)}`,
      `Trainable params: ${fmt(total)}`,
      'Non-trainable params: 0',
      bar,
    ].join('\n');
  }
}

export function resnet50Torchinfo(): string {
  const t = new Table();
  t.row(0, 'ResNet', [1000]);
  t.row(1, 'Conv2d', [64, 112, 112], 9408);
  t.row(1, 'BatchNorm2d', [64, 112, 112], 128);
  t.row(1, 'ReLU', [64, 112, 112]);
  t.row(1, 'MaxPool2d', [64, 56, 56]);
  let c = 64;
  let hw = 56;
  (
    [
      [64, 3, 1],
      [128, 4, 2],
      [256, 6, 2],
      [512, 3, 2],
    ] as const
  ).forEach(([w, n, s]) => {
    const o = hw / s;
    t.row(1, 'Sequential', [4 * w, o, o]);
    for (let j = 0; j < n; j++) {
      const st = j === 0 ? s : 1;
      const hin = j === 0 ? hw : o;
      t.row(2, 'Bottleneck', [4 * w, o, o]);
      t.row(3, 'Conv2d', [w, hin, hin], c * w);
      t.row(3, 'BatchNorm2d', [w, hin, hin], 2 * w);
      t.row(3, 'ReLU', [w, hin, hin]);
      t.row(3, 'Conv2d', [w, hin / st, hin / st], w * w * 9);
      t.row(3, 'BatchNorm2d', [w, o, o], 2 * w);
      t.row(3, 'ReLU', [w, o, o]);
      t.row(3, 'Conv2d', [4 * w, o, o], w * 4 * w);
      t.row(3, 'BatchNorm2d', [4 * w, o, o], 8 * w);
      if (j === 0) t.row(3, 'Sequential', [4 * w, o, o], c * 4 * w + 8 * w);
      t.row(3, 'ReLU', [4 * w, o, o]);
      c = 4 * w;
    }
    hw = o;
  });
  t.row(1, 'AdaptiveAvgPool2d', [2048, 1, 1]);
  t.row(1, 'Linear', [1000], 2_049_000);
  return t.text(25_557_032);
}

export function mnistTorchinfo(): string {
  const t = new Table();
  t.row(0, 'Net', [10]);
  t.row(1, 'Conv2d', [32, 26, 26], 320);
  t.row(1, 'Conv2d', [64, 24, 24], 18_496);
  t.row(1, 'Dropout', [64, 12, 12]);
  t.row(1, 'Linear', [128], 1_179_776);
  t.row(1, 'Dropout', [128]);
  t.row(1, 'Linear', [10], 1290);
  return t.text(1_199_882);
}
