import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { estimateNetwork, type NetworkOptions } from '../../../src/core/layers/estimate';
import { findNetworkPreset, NETWORK_PRESETS } from '../../../src/core/layers/presets';
import { layerText, parseLayerText } from '../../../src/core/layers/text';

const o: NetworkOptions = { mode: 'training', batch: 4, precision: 'amp-bf16', optimizer: 'adamw', gradCkpt: 'full' };

describe('terse text form', () => {
  test.each(NETWORK_PRESETS.map((p) => [p.id, p.params] as const))('%s round-trips with the same count, rows and bytes', (id, params) => {
    const net = findNetworkPreset(id)!.build();
    for (const names of [true, false]) {
      const r = parseLayerText(layerText(net.layers, names), net.input);
      if (!r.ok) throw new Error(r.errors[0].message);
      const a = estimateNetwork(net, o);
      const b = estimateNetwork(r.value, o);
      if (!a.ok || !b.ok) throw new Error('estimate');
      expect(b.value.params.total).toBe(params);
      expect(b.value.allocatedBytes).toBe(a.value.allocatedBytes);
      expect(b.value.layers.length).toBe(a.value.layers.length);
      if (names) expect(b.value.layers.map((l) => l.path)).toEqual(a.value.layers.map((l) => l.path));
    }
  });

  test('an empty Sequential (nn.Sequential() is the identity) is written back as seq[], not as the empty text the parser refuses', () => {
    // found by tests/fuzz/layers.test.ts: 'seq[]' parsed, was written '', and '' does not parse
    for (const t of ['seq[]', 'seq[seq[]]', 'linear 8 4; seq[]']) {
      const r = parseLayerText(t, [8]);
      if (!r.ok) throw new Error(r.errors[0].message);
      const again = parseLayerText(layerText(r.value.layers), [8]);
      expect(again.ok && layerText(again.value.layers)).toBe(layerText(r.value.layers));
    }
    expect(parseLayerText('', [8]).ok).toBe(false);
  });

  test('ResNet-50 without names fits in a URL (under 2,500 characters encoded)', () => {
    const t = layerText(findNetworkPreset('resnet-50')!.build().layers, false);
    expect(encodeURIComponent(t).length).toBeLessThan(2500);
  });

  test('hand-written text: a residual block with a projection shortcut', () => {
    const r = parseLayerText(
      'conv2d 3 8 k3 p1 nobias; bn2d 8; relu!; add![conv2d 8 16 k3 s2 p1 nobias; bn2d 16 | conv2d 8 16 k1 s2 nobias; bn2d 16 | relu!]; gap 1; flatten; linear 16 10',
      [3, 32, 32],
    );
    if (!r.ok) throw new Error(r.errors[0].message);
    const e = estimateNetwork(r.value, o);
    expect(e.ok && e.value.params.total).toBe(3 * 8 * 9 + 16 + 8 * 16 * 9 + 32 + 8 * 16 + 32 + 16 * 10 + 10);
    expect(e.ok && e.value.layers.find((l) => l.kind === 'add')!.outShape).toEqual([16, 16, 16]);
  });

  test.each([
    ['linear 4', /layers\[0\]\.out: required for linear/],
    ['conv2d 3 8 k3 zz', /position 14: unexpected 'zz' after conv2d/],
    ['add[linear 4 4', /expected '\]'/],
    ['relu[linear 4 4]', /'relu' is not a container/],
    ['[', /expected a layer kind/],
    ['linear 4 4; frob 3', /position 12: unknown layer kind 'frob'/],
  ])('%s → a named error', (text, msg) => {
    const r = parseLayerText(text, [4]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].message).toMatch(msg);
  });

  test('property: any string parses or gives named errors, never throws', () => {
    const alphabet = fc.constantFrom(...'conv2d linear relu! add cat rep3 seq [ ] | ; k3 s2 p1 x 0 1 4 8 @ nobias gelu'.split(' '), ' ', '[', ']');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.array(alphabet, { maxLength: 30 }).map((a) => a.join(' ')),
        ),
        (text) => {
          const r = parseLayerText(text, [4, 8, 8]);
          if (!r.ok) return r.errors.length > 0 && r.errors.every((e) => e.message.length > 0);
          const e = estimateNetwork(r.value, o);
          return e.ok ? Number.isFinite(e.value.deviceBytes) : e.errors.length > 0;
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('deep nesting is refused, not a stack overflow', () => {
    const r = parseLayerText('seq['.repeat(5000), [4]);
    expect(!r.ok && r.errors[0].message).toMatch(/nested more than 32 levels/);
  });
});
