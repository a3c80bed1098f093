import type { ByteUnit, Lang } from '../../state/store';
import { formatNumber } from '../i18n/format';
import { CLASS_NAME } from './layer-fields';
import type { LT } from './layers-i18n';
import type { TreeNode } from './net-tree';
import { GB, GiB, KB, KiB, MB, MiB } from '../../core/units';

const SI: [number, string][] = [
  [1e15, 'P'],
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** FLOPs with an SI prefix (4.11 GFLOPs), the way papers and fvcore report them; '–' for 0. */
export function formatFlops(n: number, lang: Lang): string {
  if (!(n > 0)) return '–';
  const [div, prefix] = SI.find(([d]) => n >= d) ?? [1, ''];
  return `${formatNumber(n / div, lang, n / div < 100 ? 2 : 1)} ${prefix}FLOPs`;
}

const STEPS: Record<ByteUnit, [number, string][]> = {
  GiB: [
    [GiB, 'GiB'],
    [MiB, 'MiB'],
    [KiB, 'KiB'],
  ],
  GB: [
    [GB, 'GB'],
    [MB, 'MB'],
    [KB, 'kB'],
  ],
};

/** Bytes in the largest unit of the page's family (binary or decimal) that keeps the value ≥ 1; '–' for 0. */
export function formatBytesAuto(bytes: number, unit: ByteUnit, lang: Lang): string {
  if (!(bytes > 0)) return '–';
  const [div, name] = STEPS[unit].find(([d]) => bytes >= d) ?? [1, 'B'];
  const v = bytes / div;
  return `${formatNumber(v, lang, v < 10 ? 2 : v < 100 ? 1 : 0)} ${name}`;
}

/** A per-sample shape as 64×56×56; '–' when unknown. */
export function shapeLabel(shape: number[] | null): string {
  return shape && shape.length > 0 ? shape.join('×') : '–';
}

/** Row label: the module name; unnamed residual halves (ViT) read as "residual block". */
export function nodeName(n: TreeNode, t: LT): string {
  if (!n.spec) return CLASS_NAME[n.kind] ?? n.kind;
  const name = n.spec.name ?? String(n.index);
  return name === '' ? t('table.block') : name;
}
