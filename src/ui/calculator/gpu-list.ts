import type { Gpu } from '../../core/gpu-types';
import { resolveGpu } from '../../core/gpus';

export interface ChosenGpu {
  /** what the user picked: catalogue id or a capacity like '24gib' */
  spec: string;
  gpu: Gpu;
}

/** The picked GPU specs resolved to devices; unknown specs are dropped. */
export function resolveAll(specs: readonly string[]): ChosenGpu[] {
  const out: ChosenGpu[] = [];
  for (const spec of specs) {
    const gpu = resolveGpu(spec);
    if (gpu) out.push({ spec, gpu });
  }
  return out;
}

const UNIT_NAME: Record<string, string> = { mb: 'MB', gb: 'GB', tb: 'TB', mib: 'MiB', gib: 'GiB', tib: 'TiB' };

/** Display name: catalogue name, or the capacity the user typed ('24gib' -> '24 GiB'). */
export function gpuName(c: ChosenGpu): string {
  if (c.gpu.id !== 'custom') return c.gpu.name;
  const m = /^([\d.]+)\s*([a-z]+)$/i.exec(c.spec);
  return m ? `${m[1]} ${UNIT_NAME[m[2].toLowerCase()] ?? m[2]}` : c.spec;
}
