// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { validateNetwork } from '../../../src/core/layers/validate';
import { findNetworkPreset } from '../../../src/core/layers/presets';
import { fireEvent, render, screen, within } from '@testing-library/react';
import LayersView from '../../../src/ui/layers/layers-view';
import { netStateOf, useNet } from '../../../src/ui/layers/net-store';
import { presetState, type NetState } from '../../../src/ui/layers/net-url';
import { applyEdits } from '../../../src/ui/layers/net-edits';
import { loadSavedNetworks, readSavedNetwork, restoreNetwork, saveNetwork } from '../../../src/ui/layers/saved-networks';
import type { LayerSpec } from '../../../src/core/layers/spec';
import { freshViewEachTest } from './view-setup';

freshViewEachTest();
beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

// the PyTorch quickstart MLP (pytorch/tutorials quickstart_tutorial.py) with a second ReLU after the first
const mlp: LayerSpec[] = [{ kind: 'flatten' }, { kind: 'linear', in: 784, out: 512 }, { kind: 'relu' }, { kind: 'relu' }, { kind: 'linear', in: 512, out: 10 }];
const custom: NetState = {
  ...presetState(),
  preset: 'custom',
  custom: { layers: mlp, input: [1, 28, 28] },
  input: [1, 28, 28],
  edits: [{ op: 'del', at: [{ list: 'body', i: 3 }] }],
  batch: 64,
  mode: 'inference',
  precision: 'bf16',
  optimizer: 'sgd',
  ckpt: true,
};

describe('saved networks', () => {
  test('a custom list with edits comes back exactly; the edits still hit the same layer', () => {
    expect(saveNetwork('mlp', custom, 11)).toBeNull();
    const r = loadSavedNetworks();
    expect(r.bad).toEqual([]);
    const back = restoreNetwork(r.items[0].value, ['rtx-4090']);
    expect(back).toEqual({ ...custom, gpus: ['rtx-4090'] });
    // deleting body[3] (the second ReLU) leaves flatten, linear, relu, linear
    expect(applyEdits(back.custom!.layers, back.edits).layers.map((l) => l.kind)).toEqual(['flatten', 'linear', 'relu', 'linear']);
  });

  test('a preset with edits and settings comes back exactly', () => {
    const s: NetState = { ...presetState('resnet-50'), edits: [{ op: 'set', at: [{ list: 'body', i: 0 }], fields: { kernel: 5, padding: 2 } }], batch: 8, precision: 'amp-bf16' };
    expect(saveNetwork('r50 k5', s, 12)).toBeNull();
    expect(restoreNetwork(loadSavedNetworks().items[0].value, s.gpus)).toEqual(s);
  });

  test.each([
    ['an unknown preset', { preset: 'resnet-9000' }],
    ['a custom list the validator rejects', { custom: { input: [1, 28, 28], layers: [{ kind: 'linear', in: -1, out: 2 }] } }],
    ['a custom list missing', { custom: undefined }],
    ['unreadable edits', { edits: '??' }],
    ['batch 0', { batch: 0 }],
    ['an unknown optimizer', { optimizer: 'adam-9' }],
    ['a shape with 0', { input: [0, 28] }],
  ])('%s is refused', (_, change) => {
    const good = { ...custom, edits: 'x3', savedAt: 1 };
    expect(readSavedNetwork(good)).not.toBeNull();
    expect(readSavedNetwork({ ...good, ...change })).toBeNull();
  });
});

test('random stored values never throw and only validated networks come back', () => {
  const good = { ...custom, edits: 'x3', savedAt: 1 };
  const keys = Object.keys(good);
  // whole random values, and the good entry with one field replaced by random JSON
  const entry = fc.oneof(
    fc.jsonValue(),
    fc.tuple(fc.constantFrom(...keys), fc.jsonValue()).map(([k, v]) => ({ ...good, [k]: v })),
  );
  fc.assert(
    fc.property(entry, (e) => {
      const r = readSavedNetwork(e);
      if (r === null) return;
      expect(r.preset === 'custom' ? validateNetwork(r.custom).ok : findNetworkPreset(r.preset) !== undefined).toBe(true);
      expect(Number.isInteger(r.batch) && r.batch >= 1).toBe(true);
    }),
    { numRuns: 10_000 },
  );
});

describe('saved networks panel', () => {
  test('save, reload the view, load it back; a bad entry is named next to the control', () => {
    useNet.getState().update({ batch: 12, mode: 'inference' });
    const first = render(<LayersView />);
    const panel = () => screen.getByRole('group', { name: 'Saved networks' });
    fireEvent.change(within(panel()).getByLabelText('Network name'), { target: { value: 'my resnet' } });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save network' }));
    first.unmount();
    // another page wrote a broken entry beside it
    const env = JSON.parse(localStorage.getItem('gpumem.networks')!);
    env.items.broken = { preset: 'resnet-50' };
    localStorage.setItem('gpumem.networks', JSON.stringify(env));
    useNet.getState().load(presetState('vit-b-16'), []);
    render(<LayersView />);
    expect(within(panel()).getByRole('alert').textContent).toBe('Could not read broken; kept as stored and ignored here.');
    fireEvent.click(within(panel()).getByRole('button', { name: 'my resnet' }));
    const s = netStateOf(useNet.getState());
    expect([s.preset, s.batch, s.mode]).toEqual(['resnet-50', 12, 'inference']);
    expect(screen.getByTestId('net-params').textContent).toBe('25,557,032');
    // delete by keyboard-reachable button
    fireEvent.click(within(panel()).getByRole('button', { name: 'Delete my resnet' }));
    expect(within(panel()).queryByRole('button', { name: 'my resnet' })).toBeNull();
    expect(JSON.parse(localStorage.getItem('gpumem.networks')!).items.broken).toEqual({ preset: 'resnet-50' });
  });
});
