import { describe, expect, test } from 'vitest';
import { estimateNetwork, maxBatch, prepareNetwork, type NetworkOptions } from '../../../src/core/layers/estimate';
import { CUDA_CONTEXT_BYTES } from '../../../src/core/runtime';
import { findNetworkPreset } from '../../../src/core/layers/presets';
import type { LayerSpec, Network } from '../../../src/core/layers/spec';

const train = (o: Partial<NetworkOptions> = {}): NetworkOptions => ({ mode: 'training', batch: 4, precision: 'fp32', optimizer: 'sgd-momentum', gradCkpt: 'none', ...o });

function est(net: Network, o: Partial<NetworkOptions> = {}) {
  const r = estimateNetwork(net, train(o));
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value;
}
const termBytes = (e: ReturnType<typeof est>, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;
/** Everything autograd keeps over the forward (each storage once): Σ of the per-layer first-saved bytes. */
const allSaved = (e: ReturnType<typeof est>) => e.layers.reduce((s, r) => s + r.savedBytes, 0);

/** conv 3→8 (3×3, pad 1) → BN → ReLU → maxpool 2 → flatten → Linear(2048, 10), input 3×32×32. */
function smallCnn(inplace: boolean): Network {
  const layers: LayerSpec[] = [
    { kind: 'conv2d', in: 3, out: 8, kernel: 3, padding: 1 },
    { kind: 'batchnorm2d', features: 8 },
    { kind: 'relu', inplace },
    { kind: 'maxpool2d', kernel: 2 },
    { kind: 'flatten' },
    { kind: 'linear', in: 8 * 16 * 16, out: 10 },
  ];
  return { layers, input: [3, 32, 32] };
}

describe('hand-worked small CNN (docs/reference/formulas.md §7.3)', () => {
  const x = 3 * 32 * 32; // input elements
  const m = 8 * 32 * 32; // conv / BN / ReLU map
  const pooled = 8 * 16 * 16;
  const P = 3 * 8 * 9 + 8 + 2 * 8 + (pooled * 10 + 10);

  test('fp32 training: saved = conv input + conv output (BN input) + ReLU output + pool indices + linear input', () => {
    const b = 4;
    // conv saves x; BN saves the conv map + 2·8 fp32 stats; ReLU saves its output (the BN
    // map, in place); maxpool saves that same map + int64 indices; linear saves the pooled map
    const perSample = 4 * (x + m + m + pooled) + 8 * pooled;
    const e = est(smallCnn(true), { batch: b });
    expect(allSaved(e)).toBe(perSample * b + 2 * 8 * 4);
  });

  test('backward sweep: the peak is at the ReLU, after linear and pool freed theirs, with the fc gradients made', () => {
    const b = 4;
    // at ReLU's backward: conv, BN, ReLU saves still held; fc weight+bias gradients exist;
    // grad_output and grad_input of the ReLU (two maps) are live
    const saved = 4 * (x + m + m) * b + 2 * 8 * 4;
    const grads = 4 * (pooled * 10 + 10);
    const pair = 2 * 4 * m * b;
    const e = est(smallCnn(true), { batch: b });
    expect(termBytes(e, 'activations')).toBe(saved);
    expect(termBytes(e, 'gradients')).toBe(grads);
    // + two 32 MiB cuBLAS workspaces (forward thread, autograd's device thread; CublasHandlePool.cpp on sm90)
    expect(termBytes(e, 'workspace') - 2 * 33_554_432).toBe(pair);
  });

  test('out-of-place ReLU keeps the same saved bytes (BN output freed) — docs/reference/formulas.md §7.3', () => {
    expect(allSaved(est(smallCnn(false)))).toBe(allSaved(est(smallCnn(true))));
  });

  test('model states for SGD+momentum in fp32: 4 B weights + 4 B momentum per parameter, BN buffers 2·8·4 + 8', () => {
    const e = est(smallCnn(true));
    expect(e.params.total).toBe(P);
    expect(termBytes(e, 'weights')).toBe(4 * P + 2 * 8 * 4 + 8);
    expect(termBytes(e, 'optimizer')).toBe(4 * P);
  });

  test('with tiny activations (quickstart MLP, batch 1) the peak is at the first Linear: every gradient exists', () => {
    const mlp = findNetworkPreset('mlp')!.build();
    const e = est(mlp, { batch: 1 });
    expect(termBytes(e, 'gradients')).toBe(4 * 669_706);
    // the first Linear still holds its saved input (784 floats)
    expect(termBytes(e, 'activations')).toBe(4 * 784);
  });

  test('AdamW keeps two fp32 moments: 8 B per parameter (docs/reference/formulas.md §4.1)', () => {
    expect(termBytes(est(smallCnn(true), { optimizer: 'adamw' }), 'optimizer')).toBe(8 * P);
  });

  test('AMP: conv saves a 16-bit cast of the fp32 input, maps are 16-bit, BN stats stay fp32', () => {
    const b = 2;
    const perSample = 2 * (x + m + m + pooled) + 8 * pooled;
    const e = est(smallCnn(true), { batch: b, precision: 'amp-bf16' });
    expect(allSaved(e)).toBe(perSample * b + 2 * 8 * 4);
    // autocast caches 16-bit copies of conv/linear weights; fp32 params are the master copy
    const cast = 3 * 8 * 9 + 8 + (pooled * 10 + 10);
    expect(termBytes(e, 'weights')).toBe(2 * cast + 2 * 8 * 4 + 8);
    expect(termBytes(e, 'master-weights')).toBe(4 * P);
  });

  test('inference peak = largest input + output pair (BN: two maps) times the batch', () => {
    const b = 8;
    const e = est(smallCnn(false), { mode: 'inference', batch: b });
    expect(termBytes(e, 'activations')).toBe(4 * (m + m) * b);
    expect(termBytes(e, 'gradients')).toBe(0);
  });

  test('inference (eval, no_grad): Dropout is the identity; max_pool2d holds its int64 indices while it runs', () => {
    const inf = (layers: LayerSpec[], input: number[]) => termBytes(est({ layers, input }, { mode: 'inference', batch: 2 }), 'activations');
    expect(inf([{ kind: 'dropout', p: 0.5 }], [1000])).toBe(4 * 1000 * 2);
    expect(inf([{ kind: 'maxpool2d', kernel: 2 }], [1, 4, 4])).toBe((4 * 16 + 4 * 4 + 8 * 4) * 2);
  });

  test('per-layer table: output bytes and first-saved bytes per layer for the batch', () => {
    const b = 4;
    const e = est(smallCnn(true), { batch: b });
    const [conv, bn, relu, pool, flat, fc] = e.layers;
    expect(conv.outputBytes).toBe(4 * m * b);
    expect(conv.savedBytes).toBe(4 * x * b);
    expect(bn.savedBytes).toBe(4 * m * b + 2 * 8 * 4);
    expect(relu.outputBytes).toBe(0); // in place
    expect(relu.savedBytes).toBe(4 * m * b);
    expect(pool.savedBytes).toBe(8 * pooled * b);
    expect(flat.outputBytes).toBe(0); // a view
    expect(fc.savedBytes).toBe(4 * pooled * b);
    expect(conv.flops).toBe(2 * m * 3 * 9 * b);
  });

  test('totals: allocated = Σ allocated terms, device = reserved + CUDA context', () => {
    const e = est(smallCnn(true));
    const alloc = e.terms.filter((t) => t.level === 'allocated').reduce((s, t) => s + t.bytes, 0);
    expect(e.allocatedBytes).toBe(alloc);
    expect(e.deviceBytes).toBe(e.reservedBytes + CUDA_CONTEXT_BYTES);
    expect(e.reservedBytes).toBeGreaterThanOrEqual(e.allocatedBytes);
  });
});

describe('what autograd saves, per op (derivatives.yaml)', () => {
  const one = (layers: LayerSpec[], input: number[]) => allSaved(est({ layers, input }, { batch: 1 }));

  test('Dropout keeps a 1-byte mask; p = 0 returns its input and keeps nothing', () => {
    const lin: LayerSpec = { kind: 'linear', in: 100, out: 100 };
    const base = one([lin], [100]);
    expect(one([lin, { kind: 'dropout', p: 0.5 }], [100])).toBe(base + 100);
    expect(one([lin, { kind: 'dropout', p: 0 }], [100])).toBe(base);
  });

  test('GELU saves its input, Sigmoid its output: a following Linear shares one or the other', () => {
    const l1: LayerSpec = { kind: 'linear', in: 64, out: 64 };
    // linear (saves x) → gelu (saves linear out) → linear (saves gelu out): three tensors
    expect(one([l1, { kind: 'gelu' }, l1], [64])).toBe(4 * 64 * 3);
    // linear → sigmoid (saves its output, which the next linear also saves): two tensors
    expect(one([l1, { kind: 'sigmoid' }, l1], [64])).toBe(4 * 64 * 2);
  });

  test('Embedding saves its int64 ids, also when nested in a container', () => {
    const layers: LayerSpec[] = [
      { kind: 'sequential', name: 'emb', body: [{ kind: 'embedding', num: 1000, dim: 16 }] },
      { kind: 'linear', in: 16, out: 4 },
    ];
    // ids: 10 × 8 B; the linear saves the 10 × 16 fp32 embedding output
    expect(one(layers, [10])).toBe(10 * 8 + 10 * 16 * 4);
  });

  test('LayerNorm saves input + fp32 mean and rstd per row', () => {
    expect(one([{ kind: 'layernorm', shape: [32] }], [10, 32])).toBe(4 * 10 * 32 + 2 * 10 * 4);
  });

  test('residual add saves nothing; concat makes a new tensor of both branches', () => {
    const body: LayerSpec[] = [{ kind: 'conv2d', in: 4, out: 4, kernel: 1, bias: false }];
    const add = est({ layers: [{ kind: 'block', body, merge: 'add' }], input: [4, 8, 8] }, { batch: 1 });
    expect(allSaved(add)).toBe(4 * 4 * 64); // the conv input only
    const cat = est(
      {
        layers: [
          { kind: 'block', body, merge: 'concat' },
          { kind: 'conv2d', in: 8, out: 1, kernel: 1 },
        ],
        input: [4, 8, 8],
      },
      { batch: 1 },
    );
    expect(cat.layers.find((r) => r.kind === 'concat')!.outShape).toEqual([8, 8, 8]);
    expect(allSaved(cat)).toBe(4 * 4 * 64 + 4 * 8 * 64);
  });
});

describe('gradient checkpointing (torch.utils.checkpoint.checkpoint_sequential, √n segments)', () => {
  test('9 equal Linear layers: 3 segments of 3; keeps 2 segment inputs + last segment, recomputes one', () => {
    const layers: LayerSpec[] = Array.from({ length: 9 }, () => ({ kind: 'linear', in: 256, out: 256, bias: false }));
    const t = 256 * 4; // one fp32 activation
    expect(allSaved(est({ layers, input: [256] }, { batch: 1 }))).toBe(9 * t);
    // inputs of segments 1 and 2 (2t) + the last segment's three saved inputs (3t) = 5t;
    // recomputing segment 2 needs its input + its 2 other saved inputs on top of segment 1's: 4t
    expect(termBytes(est({ layers, input: [256] }, { batch: 1, gradCkpt: 'full' }), 'activations')).toBe(5 * t);
  });

  test('checkpointing ResNet-50 keeps less than half the activations', () => {
    const net = findNetworkPreset('resnet-50')!.build();
    const none = allSaved(est(net, { batch: 8 }));
    const ckpt = termBytes(est(net, { batch: 8, gradCkpt: 'full' }), 'activations');
    expect(ckpt).toBeLessThan(none / 2);
    expect(ckpt).toBeGreaterThan(0);
  });
});

describe('errors and capacity', () => {
  test('a shape misfit names the first layer that does not fit', () => {
    const net = findNetworkPreset('resnet-50')!.build();
    const r = estimateNetwork({ ...net, input: [1, 224, 224] }, train());
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].message).toBe("layer 'conv1' (conv2d): expects 3 input channels, got 1");
  });

  test('a misfit inside a residual block names the nested path', () => {
    const layers: LayerSpec[] = [
      {
        kind: 'sequential',
        name: 'layer1',
        body: [
          {
            kind: 'block',
            name: '0',
            merge: 'add',
            body: [
              { kind: 'conv2d', name: 'conv1', in: 8, out: 8, kernel: 3, padding: 1 },
              { kind: 'conv2d', name: 'conv2', in: 16, out: 8, kernel: 3 },
            ],
          },
        ],
      },
    ];
    const r = estimateNetwork({ layers, input: [8, 16, 16] }, train());
    expect(!r.ok && r.errors[0].message).toBe("layer 'layer1.0.conv2' (conv2d): expects 16 input channels, got 8");
  });

  test('a block whose branches disagree is reported at the merge', () => {
    const layers: LayerSpec[] = [{ kind: 'block', name: 'b', merge: 'add', body: [{ kind: 'conv2d', in: 4, out: 8, kernel: 1 }] }];
    const r = estimateNetwork({ layers, input: [4, 8, 8] }, train());
    expect(!r.ok && r.errors[0].message).toMatch(/^layer 'b' \(block\): add: body gives \[8, 8, 8\], shortcut gives \[4, 8, 8\]/);
  });

  test('batch out of range is a field error', () => {
    const r = estimateNetwork(smallCnn(true), train({ batch: 0 }));
    expect(!r.ok && r.errors[0].key).toBe('batch');
  });

  test('maxBatch: the answer fits and one more does not', () => {
    const p = prepareNetwork(findNetworkPreset('resnet-50')!.build(), 'amp-bf16');
    if (!p.ok) throw new Error('prepare');
    const o = { mode: 'training' as const, precision: 'amp-bf16' as const, optimizer: 'adamw' as const, gradCkpt: 'none' as const };
    const cap = 24 * 2 ** 30;
    const b = maxBatch(p.value, o, cap);
    expect(b).toBeGreaterThan(1);
    const at = (n: number) => estimateNetwork(p.value.net, { ...o, batch: n });
    const fit = at(b);
    const over = at(b + 1);
    expect(fit.ok && fit.value.deviceBytes <= cap).toBe(true);
    expect(over.ok && over.value.deviceBytes > cap).toBe(true);
    expect(maxBatch(p.value, o, 2 ** 20)).toBe(0);
  });
});
