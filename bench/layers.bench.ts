// Per-layer network estimates: ResNet-50 end to end, the per-batch totals alone, the
// max-batch search, and print(model) import. Targets keep a slider drag interactive (< 16 ms frame).
import { estimateNetwork, estimatePrepared, maxBatch, prepareNetwork, type NetworkOptions } from '../src/core/layers/estimate';
import { findNetworkPreset } from '../src/core/layers/presets';
import { importTorchRepr } from '../src/core/layers/repr-import';
import { resnet50Repr } from '../tests/core/layers/torch-repr-text';
import { medianMicros, type BenchRow } from './types';

export default function bench(): BenchRow[] {
  const net = findNetworkPreset('resnet-50')!.build();
  const o: NetworkOptions = { mode: 'training', batch: 32, precision: 'amp-bf16', optimizer: 'adamw', gradCkpt: 'none' };
  const p = prepareNetwork(net, o.precision);
  if (!p.ok) throw new Error(p.errors[0].message);
  const text = resnet50Repr();
  return [
    { name: 'ResNet-50 estimate (analyse + totals)', value: medianMicros(() => estimateNetwork(net, o)), unit: 'µs', target: 5000 },
    { name: 'ResNet-50 totals for one batch (prepared)', value: medianMicros(() => estimatePrepared(p.value, o)), unit: 'µs', target: 1000 },
    { name: 'ResNet-50 totals, grad checkpointing', value: medianMicros(() => estimatePrepared(p.value, { ...o, gradCkpt: 'full' })), unit: 'µs', target: 2000 },
    { name: 'ResNet-50 largest batch on 80 GiB', value: medianMicros(() => maxBatch(p.value, o, 80 * 2 ** 30), 50, 10), unit: 'µs', target: 50_000 },
    { name: 'ResNet-50 print(model) import', value: medianMicros(() => importTorchRepr(text, [3, 224, 224])), unit: 'µs', target: 5000 },
  ];
}
