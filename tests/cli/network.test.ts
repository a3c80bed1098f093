import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runNetwork } from '../../src/cli/network';
import { resnet50Repr } from '../core/layers/torch-repr-text';
import { mnistTorchinfo } from '../core/layers/torchinfo-text';

const dir = mkdtempSync(join(tmpdir(), 'net-cli-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

function json(argv: string[]) {
  const r = runNetwork([...argv, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

function bad(argv: string[]) {
  const r = runNetwork(argv);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  return r.stderr;
}

describe('runNetwork --json', () => {
  test('ResNet-50 training: the LLM estimate shape plus a per-layer table', () => {
    const out = json(['--network', 'resnet-50', '--input', '3x224x224', '--batch', '32', '--mode', 'training', '--precision', 'fp32', '--optimizer', 'sgd-momentum']);
    expect(out.params).toEqual({ total: 25_557_032, trainable: 25_557_032, active: 25_557_032 });
    // SGD with momentum in fp32: 4 B of momentum per parameter (docs/reference/formulas.md §4.1); gradients at
    // the backward peak are at most the 4 B per parameter of a full set
    expect(out.terms.find((t: { id: string }) => t.id === 'optimizer').bytes).toBe(4 * 25_557_032);
    expect(out.terms.find((t: { id: string }) => t.id === 'gradients').bytes).toBeLessThanOrEqual(4 * 25_557_032);
    const allocated = out.terms.filter((t: { level: string }) => t.level === 'allocated').reduce((s: number, t: { bytes: number }) => s + t.bytes, 0);
    expect(out.allocatedBytes).toBe(allocated);
    expect(out.reservedBytes).toBeGreaterThanOrEqual(out.allocatedBytes);
    expect(out.deviceBytes).toBeGreaterThan(out.reservedBytes);
    expect(out.layers.find((r: { path: string }) => r.path === 'avgpool').inShape).toEqual([2048, 7, 7]);
    // conv1 saves the fp32 input batch: 32 · 3 · 224 · 224 · 4 B
    expect(out.layers[0].savedBytes).toBe(32 * 3 * 224 * 224 * 4);
    expect(out.outShape).toEqual([1000]);
  });

  test('--gpu adds the fit and the largest batch; a bigger card fits a bigger batch', () => {
    const a = json(['--network', 'vgg-16', '--mode', 'training', '--batch', '8', '--gpu', '24GiB']).gpu;
    const b = json(['--network', 'vgg-16', '--mode', 'training', '--batch', '8', '--gpu', '80GiB']).gpu;
    expect(a.capacityBytes).toBe(24 * 2 ** 30);
    expect(a.fits).toBe(true);
    expect(b.maxBatch).toBeGreaterThan(a.maxBatch);
    expect(a.maxBatch).toBeGreaterThanOrEqual(8);
  });

  test('a JSON layer-list file', () => {
    const p = file('mlp.json', JSON.stringify({ input: [784], layers: [{ kind: 'linear', in: 784, out: 100 }, { kind: 'relu' }, { kind: 'linear', in: 100, out: 10 }] }));
    expect(json(['--network', p]).params.total).toBe(784 * 100 + 100 + 100 * 10 + 10);
  });

  test('a print(model) file reproduces the ResNet-50 count and reports its assumptions', () => {
    const out = json(['--network', file('r50.txt', resnet50Repr()), '--input', '3x224x224']);
    expect(out.params.total).toBe(25_557_032);
    expect(out.notes.some((n: { code: string }) => n.code === 'repr.resblock')).toBe(true);
    expect(out.unparsed).toEqual([]);
  });
});

describe('torchinfo summary file', () => {
  test('MNIST summary: count agrees with its footer, no mismatch note', () => {
    const out = json(['--network', file('s.txt', mnistTorchinfo()), '--input', '1x28x28']);
    expect(out.params.total).toBe(1_199_882);
    expect(out.notes.some((n: { code: string }) => n.code === 'torchinfo.total')).toBe(false);
  });

  test('a footer that disagrees is reported', () => {
    const out = json(['--network', file('s2.txt', mnistTorchinfo().replace('Total params: 1,199,882', 'Total params: 1,199,883')), '--input', '1x28x28']);
    expect(out.notes[0].code).toBe('torchinfo.total');
  });
});

describe('terse layer text, inline or in a file', () => {
  test('inline text with --input', () => {
    const out = json(['--network', 'flatten; linear 784 512; relu; linear 512 10', '--input', '1x28x28']);
    expect(out.params.total).toBe(784 * 512 + 512 + 512 * 10 + 10);
  });

  test('a text file; errors carry the position', () => {
    expect(json(['--network', file('n.txt', 'conv2d 1 4 k3; relu!; flatten; linear 2704 10'), '--input', '1x28x28']).params.total).toBe(4 * 9 + 4 + 2704 * 10 + 10);
    expect(bad(['--network', 'linear 4 4; frob', '--input', '4'])).toMatch(/^error: layer text: position 12: unknown layer kind 'frob'/);
  });
});

describe('runNetwork table output', () => {
  test('readable table with totals', () => {
    const r = runNetwork(['--network', 'cnn', '--batch', '64', '--mode', 'training']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cnn: input 1x28x28, batch 64, training/);
    expect(r.stdout).toMatch(/fc1\s+linear\s+128\s+1,179,776/);
    expect(r.stdout).toMatch(/allocated [\d.]+ GiB {2}reserved [\d.]+ GiB {2}device [\d.]+ GiB/);
  });
});

describe('bad input: exit code 2, one stderr line', () => {
  test.each([
    [['--network', 'resnet-51'], /neither a preset/],
    [['--network', 'resnet-50', '--batch', '0'], /--batch must be an integer/],
    [['--network', 'resnet-50', '--mode', 'serving'], /--mode must be one of inference, training/],
    [['--network', 'resnet-50', '--input', '3x0x224'], /--input must be a per-sample shape/],
    [['--network', 'resnet-50', '--seq', '5'], /unknown option --seq/],
    [['--network', 'resnet-50', '--gpu', 'a200'], /--gpu 'a200'/],
    [['--batch', '3'], /--network is required/],
    [['--network'], /--network needs a value/],
  ])('%j', (argv, msg) => {
    expect(bad(argv)).toMatch(msg);
  });

  test('a shape misfit names the layer', () => {
    expect(bad(['--network', 'resnet-50', '--input', '1x224x224'])).toBe("error: layer 'conv1' (conv2d): expects 3 input channels, got 1\n");
  });

  test('print(model) text needs --input; invalid JSON names the problem', () => {
    expect(bad(['--network', file('m.txt', 'Net(\n  (fc): Linear(in_features=4, out_features=2, bias=True)\n)')])).toMatch(/--input is required for print\(model\) or layer text/);
    expect(bad(['--network', file('b.json', '{"input":[4],"layers":[{"kind":"linear","in":4}]}')])).toMatch(/layers\[0\]\.out: required for linear/);
  });
});
