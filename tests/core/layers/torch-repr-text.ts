/**
 * Test data: print(model) text in the exact format of torch.nn Module.__repr__ / extra_repr
 * (Conv2d prints padding only when non-zero, groups only when != 1, bias=False only when off),
 * for torchvision's resnet50 and mobilenet_v2 module trees (models/resnet.py, mobilenetv2.py)
 * and vit_b_16 (vision_transformer.py). Checked against a stored real resnet50 print.
 */

const BN = (c: number) => `BatchNorm2d(${c}, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)`;

function conv(i: number, o: number, k: number, s = 1, p = 0, g = 1, bias = false): string {
  let t = `Conv2d(${i}, ${o}, kernel_size=(${k}, ${k}), stride=(${s}, ${s})`;
  if (p) t += `, padding=(${p}, ${p})`;
  if (g !== 1) t += `, groups=${g}`;
  if (!bias) t += ', bias=False';
  return `${t})`;
}

/** Indent-aware builder: line(depth, text). */
class Text {
  lines: string[] = [];
  line(d: number, s: string): void {
    this.lines.push(`${'  '.repeat(d)}${s}`);
  }
  toString(): string {
    return this.lines.join('\n');
  }
}

export function resnet50Repr(): string {
  const t = new Text();
  t.line(0, 'ResNet(');
  t.line(1, `(conv1): ${conv(3, 64, 7, 2, 3)}`);
  t.line(1, `(bn1): ${BN(64)}`);
  t.line(1, '(relu): ReLU(inplace=True)');
  t.line(1, '(maxpool): MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)');
  let c = 64;
  (
    [
      [64, 3, 1],
      [128, 4, 2],
      [256, 6, 2],
      [512, 3, 2],
    ] as const
  ).forEach(([w, n, s], li) => {
    t.line(1, `(layer${li + 1}): Sequential(`);
    for (let j = 0; j < n; j++) {
      const st = j === 0 ? s : 1;
      t.line(2, `(${j}): Bottleneck(`);
      t.line(3, `(conv1): ${conv(c, w, 1)}`);
      t.line(3, `(bn1): ${BN(w)}`);
      t.line(3, `(conv2): ${conv(w, w, 3, st, 1)}`);
      t.line(3, `(bn2): ${BN(w)}`);
      t.line(3, `(conv3): ${conv(w, 4 * w, 1)}`);
      t.line(3, `(bn3): ${BN(4 * w)}`);
      t.line(3, '(relu): ReLU(inplace=True)');
      if (j === 0) {
        t.line(3, '(downsample): Sequential(');
        t.line(4, `(0): ${conv(c, 4 * w, 1, st)}`);
        t.line(4, `(1): ${BN(4 * w)}`);
        t.line(3, ')');
      }
      t.line(2, ')');
      c = 4 * w;
    }
    t.line(1, ')');
  });
  t.line(1, '(avgpool): AdaptiveAvgPool2d(output_size=(1, 1))');
  t.line(1, '(fc): Linear(in_features=2048, out_features=1000, bias=True)');
  t.line(0, ')');
  return t.toString();
}

function cna(t: Text, d: number, name: string, i: number, o: number, k: number, s = 1, g = 1): void {
  t.line(d, `(${name}): Conv2dNormActivation(`);
  t.line(d + 1, `(0): ${conv(i, o, k, s, (k - 1) / 2, g)}`);
  t.line(d + 1, `(1): ${BN(o)}`);
  t.line(d + 1, '(2): ReLU6(inplace=True)');
  t.line(d, ')');
}

export function mobilenetV2Repr(): string {
  const t = new Text();
  t.line(0, 'MobileNetV2(');
  t.line(1, '(features): Sequential(');
  cna(t, 2, '0', 3, 32, 3, 2);
  let c = 32;
  let idx = 1;
  for (const [e, o, n, s] of [
    [1, 16, 1, 1],
    [6, 24, 2, 2],
    [6, 32, 3, 2],
    [6, 64, 4, 2],
    [6, 96, 3, 1],
    [6, 160, 3, 2],
    [6, 320, 1, 1],
  ]) {
    for (let j = 0; j < n; j++) {
      const h = c * e;
      t.line(2, `(${idx++}): InvertedResidual(`);
      t.line(3, '(conv): Sequential(');
      let k = 0;
      if (e !== 1) cna(t, 4, String(k++), c, h, 1);
      cna(t, 4, String(k++), h, h, 3, j === 0 ? s : 1, h);
      t.line(4, `(${k++}): ${conv(h, o, 1)}`);
      t.line(4, `(${k}): ${BN(o)}`);
      t.line(3, ')');
      t.line(2, ')');
      c = o;
    }
  }
  cna(t, 2, String(idx), 320, 1280, 1);
  t.line(1, ')');
  t.line(1, '(classifier): Sequential(');
  t.line(2, '(0): Dropout(p=0.2, inplace=False)');
  t.line(2, '(1): Linear(in_features=1280, out_features=1000, bias=True)');
  t.line(1, ')');
  t.line(0, ')');
  return t.toString();
}

export function vitB16Repr(): string {
  const t = new Text();
  const LN = 'LayerNorm((768,), eps=1e-06, elementwise_affine=True)';
  t.line(0, 'VisionTransformer(');
  t.line(1, '(conv_proj): Conv2d(3, 768, kernel_size=(16, 16), stride=(16, 16))');
  t.line(1, '(encoder): Encoder(');
  t.line(2, '(dropout): Dropout(p=0.0, inplace=False)');
  t.line(2, '(layers): Sequential(');
  for (let i = 0; i < 12; i++) {
    t.line(3, `(encoder_layer_${i}): EncoderBlock(`);
    t.line(4, `(ln_1): ${LN}`);
    t.line(4, '(self_attention): MultiheadAttention(');
    t.line(5, '(out_proj): NonDynamicallyQuantizableLinear(in_features=768, out_features=768, bias=True)');
    t.line(4, ')');
    t.line(4, '(dropout): Dropout(p=0.0, inplace=False)');
    t.line(4, `(ln_2): ${LN}`);
    t.line(4, '(mlp): MLPBlock(');
    t.line(5, '(0): Linear(in_features=768, out_features=3072, bias=True)');
    t.line(5, "(1): GELU(approximate='none')");
    t.line(5, '(2): Dropout(p=0.0, inplace=False)');
    t.line(5, '(3): Linear(in_features=3072, out_features=768, bias=True)');
    t.line(5, '(4): Dropout(p=0.0, inplace=False)');
    t.line(4, ')');
    t.line(3, ')');
  }
  t.line(2, ')');
  t.line(2, `(ln): ${LN}`);
  t.line(1, ')');
  t.line(1, '(heads): Sequential(');
  t.line(2, '(head): Linear(in_features=768, out_features=1000, bias=True)');
  t.line(1, ')');
  t.line(0, ')');
  return t.toString();
}
