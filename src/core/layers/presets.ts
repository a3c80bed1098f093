/**
 * Preset networks, layer for layer as torchvision / the PyTorch tutorials define them
 * (module names kept so rows read like print(model)). Structures: docs/reference/catalogues.md §3;
 * torchvision models/resnet.py, vgg.py, mobilenetv2.py, vision_transformer.py;
 * pytorch/tutorials beginner_source/basics/quickstart_tutorial.py (MLP);
 * pytorch/examples mnist/main.py (CNN).
 */
import type { LayerSpec, Network } from './spec';

const conv = (name: string, i: number, o: number, k: number, s = 1, p = 0, groups = 1, bias = false): LayerSpec => ({
  kind: 'conv2d',
  name,
  in: i,
  out: o,
  kernel: k,
  stride: s,
  padding: p,
  groups,
  bias,
});
const bn = (name: string, c: number): LayerSpec => ({ kind: 'batchnorm2d', name, features: c });
const relu = (name = 'relu'): LayerSpec => ({ kind: 'relu', name, inplace: true });

/** torchvision Bottleneck (v1.5: stride on the 3×3), expansion 4. */
function bottleneck(name: string, inC: number, w: number, stride: number): LayerSpec {
  const down = stride !== 1 || inC !== 4 * w;
  return {
    kind: 'block',
    name,
    merge: 'add',
    inplace: true,
    body: [conv('conv1', inC, w, 1), bn('bn1', w), relu(), conv('conv2', w, w, 3, stride, 1), bn('bn2', w), relu(), conv('conv3', w, 4 * w, 1), bn('bn3', 4 * w)],
    shortcut: down ? [{ kind: 'sequential', name: 'downsample', body: [conv('0', inC, 4 * w, 1, stride), bn('1', 4 * w)] }] : [],
    post: [relu()],
  };
}

function resnet50(): LayerSpec[] {
  const stages: [number, number, number][] = [
    [64, 3, 1],
    [128, 4, 2],
    [256, 6, 2],
    [512, 3, 2],
  ];
  let c = 64;
  const layers: LayerSpec[] = [conv('conv1', 3, 64, 7, 2, 3), bn('bn1', 64), relu(), { kind: 'maxpool2d', name: 'maxpool', kernel: 3, stride: 2, padding: 1 }];
  stages.forEach(([w, n, s], i) => {
    const body: LayerSpec[] = [];
    for (let j = 0; j < n; j++) {
      body.push(bottleneck(String(j), c, w, j === 0 ? s : 1));
      c = 4 * w;
    }
    layers.push({ kind: 'sequential', name: `layer${i + 1}`, body });
  });
  layers.push({ kind: 'adaptiveavgpool2d', name: 'avgpool', out: 1 }, { kind: 'flatten', name: 'flatten' }, { kind: 'linear', name: 'fc', in: 2048, out: 1000 });
  return layers;
}

function vgg16(): LayerSpec[] {
  const cfg: (number | 'M')[] = [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 'M', 512, 512, 512, 'M', 512, 512, 512, 'M'];
  const features: LayerSpec[] = [];
  let c = 3;
  for (const v of cfg) {
    const name = String(features.length);
    if (v === 'M') {
      features.push({ kind: 'maxpool2d', name, kernel: 2, stride: 2 });
      continue;
    }
    features.push(conv(name, c, v, 3, 1, 1, 1, true), relu(String(features.length + 1)));
    c = v;
  }
  return [
    { kind: 'sequential', name: 'features', body: features },
    { kind: 'adaptiveavgpool2d', name: 'avgpool', out: 7 },
    { kind: 'flatten', name: 'flatten' },
    {
      kind: 'sequential',
      name: 'classifier',
      body: [
        { kind: 'linear', in: 25088, out: 4096 },
        relu('1'),
        { kind: 'dropout', p: 0.5 },
        { kind: 'linear', in: 4096, out: 4096 },
        relu('4'),
        { kind: 'dropout', p: 0.5 },
        { kind: 'linear', in: 4096, out: 1000 },
      ],
    },
  ];
}

/** torchvision Conv2dNormActivation with ReLU6. */
const cbr = (name: string, i: number, o: number, k: number, s = 1, groups = 1): LayerSpec => ({
  kind: 'sequential',
  name,
  body: [conv('0', i, o, k, s, (k - 1) / 2, groups), bn('1', o), { kind: 'relu6', name: '2', inplace: true }],
});

function mobilenetV2(): LayerSpec[] {
  const settings: [number, number, number, number][] = [
    [1, 16, 1, 1],
    [6, 24, 2, 2],
    [6, 32, 3, 2],
    [6, 64, 4, 2],
    [6, 96, 3, 1],
    [6, 160, 3, 2],
    [6, 320, 1, 1],
  ];
  const features: LayerSpec[] = [cbr('0', 3, 32, 3, 2)];
  let c = 32;
  for (const [t, o, n, s] of settings) {
    for (let j = 0; j < n; j++) {
      const stride = j === 0 ? s : 1;
      const hidden = c * t;
      const body: LayerSpec[] = [];
      if (t !== 1) body.push(cbr(String(body.length), c, hidden, 1));
      body.push(cbr(String(body.length), hidden, hidden, 3, stride, hidden), conv(String(body.length + 1), hidden, o, 1), bn(String(body.length + 2), o));
      const inner: LayerSpec = { kind: 'sequential', name: 'conv', body };
      const name = String(features.length);
      features.push(stride === 1 && c === o ? { kind: 'block', name, body: [inner], merge: 'add' } : { kind: 'sequential', name, body: [inner] });
      c = o;
    }
  }
  features.push(cbr(String(features.length), 320, 1280, 1));
  return [
    { kind: 'sequential', name: 'features', body: features },
    { kind: 'adaptiveavgpool2d', name: 'avgpool', out: 1 },
    { kind: 'flatten', name: 'flatten' },
    {
      kind: 'sequential',
      name: 'classifier',
      body: [
        { kind: 'dropout', p: 0.2 },
        { kind: 'linear', in: 1280, out: 1000 },
      ],
    },
  ];
}

/** torchvision vit_b_16: EncoderBlock = x + attn(ln_1(x)), then + mlp(ln_2(·)); dropouts are 0. */
function vitB16(): LayerSpec[] {
  const d = 768;
  const layers: LayerSpec[] = [];
  for (let i = 0; i < 12; i++) {
    layers.push({
      kind: 'sequential',
      name: `encoder_layer_${i}`,
      body: [
        {
          kind: 'block',
          name: '',
          merge: 'add',
          body: [
            { kind: 'layernorm', name: 'ln_1', shape: [d] },
            { kind: 'mha', name: 'self_attention', embed: d, heads: 12 },
            { kind: 'dropout', name: 'dropout', p: 0 },
          ],
        },
        {
          kind: 'block',
          name: '',
          merge: 'add',
          body: [
            { kind: 'layernorm', name: 'ln_2', shape: [d] },
            {
              kind: 'sequential',
              name: 'mlp',
              body: [{ kind: 'linear', in: d, out: 3072 }, { kind: 'gelu' }, { kind: 'dropout', p: 0 }, { kind: 'linear', in: 3072, out: d }, { kind: 'dropout', p: 0 }],
            },
          ],
        },
      ],
    });
  }
  return [
    { kind: 'conv2d', name: 'conv_proj', in: 3, out: d, kernel: 16, stride: 16 },
    { kind: 'tokens', name: 'tokens' },
    { kind: 'clstoken', name: 'class_token', dim: d },
    {
      kind: 'sequential',
      name: 'encoder',
      body: [
        { kind: 'posembed', name: 'pos_embedding', tokens: 197, dim: d },
        { kind: 'dropout', name: 'dropout', p: 0 },
        { kind: 'sequential', name: 'layers', body: layers },
        { kind: 'layernorm', name: 'ln', shape: [d] },
      ],
    },
    { kind: 'select', name: 'cls' },
    { kind: 'sequential', name: 'heads', body: [{ kind: 'linear', name: 'head', in: d, out: 1000 }] },
  ];
}

/** PyTorch quickstart NeuralNetwork: Flatten, 784→512→512→10 with ReLU. */
const mlp = (): LayerSpec[] => [
  { kind: 'flatten', name: 'flatten' },
  {
    kind: 'sequential',
    name: 'linear_relu_stack',
    body: [{ kind: 'linear', in: 784, out: 512 }, { kind: 'relu' }, { kind: 'linear', in: 512, out: 512 }, { kind: 'relu' }, { kind: 'linear', in: 512, out: 10 }],
  },
];

/** pytorch/examples mnist Net (F.relu is out of place; log_softmax omitted). */
const cnn = (): LayerSpec[] => [
  { kind: 'conv2d', name: 'conv1', in: 1, out: 32, kernel: 3 },
  { kind: 'relu', name: 'relu1' },
  { kind: 'conv2d', name: 'conv2', in: 32, out: 64, kernel: 3 },
  { kind: 'relu', name: 'relu2' },
  { kind: 'maxpool2d', name: 'max_pool2d', kernel: 2 },
  { kind: 'dropout', name: 'dropout1', p: 0.25 },
  { kind: 'flatten', name: 'flatten' },
  { kind: 'linear', name: 'fc1', in: 9216, out: 128 },
  { kind: 'relu', name: 'relu3' },
  { kind: 'dropout', name: 'dropout2', p: 0.5 },
  { kind: 'linear', name: 'fc2', in: 128, out: 10 },
];

export interface NetworkPreset {
  id: string;
  label: string;
  /** published parameter count */
  params: number;
  source: string;
  build: () => Network;
}

const img = [3, 224, 224];
const mnist = [1, 28, 28];

/** The presets; `params` is the published count each build must reproduce (tested). */
export const NETWORK_PRESETS: readonly NetworkPreset[] = [
  { id: 'resnet-50', label: 'ResNet-50', params: 25_557_032, source: 'torchvision models/resnet.py; docs/reference/catalogues.md §3', build: () => ({ layers: resnet50(), input: img }) },
  { id: 'vgg-16', label: 'VGG-16', params: 138_357_544, source: 'torchvision models/vgg.py (config D); docs/reference/catalogues.md §3', build: () => ({ layers: vgg16(), input: img }) },
  { id: 'mobilenet-v2', label: 'MobileNetV2', params: 3_504_872, source: 'torchvision models/mobilenetv2.py; docs/reference/catalogues.md §3', build: () => ({ layers: mobilenetV2(), input: img }) },
  { id: 'vit-b-16', label: 'ViT-B/16', params: 86_567_656, source: 'torchvision models/vision_transformer.py; docs/reference/catalogues.md §3', build: () => ({ layers: vitB16(), input: img }) },
  { id: 'mlp', label: 'MLP (PyTorch quickstart)', params: 669_706, source: 'pytorch/tutorials quickstart_tutorial.py', build: () => ({ layers: mlp(), input: mnist }) },
  { id: 'cnn', label: 'CNN (PyTorch MNIST example)', params: 1_199_882, source: 'pytorch/examples mnist/main.py', build: () => ({ layers: cnn(), input: mnist }) },
];

/** A preset by id (case-insensitive), or undefined. */
export function findNetworkPreset(id: string): NetworkPreset | undefined {
  const k = id.trim().toLowerCase();
  return NETWORK_PRESETS.find((p) => p.id === k);
}
