import { GiB, KiB, MiB } from '../../core/units';

const UNITS = [
  ['GiB', GiB],
  ['MiB', MiB],
  ['KiB', KiB],
] as const;

/** The binary unit a lab chart's byte axis counts in, so ticks are round numbers of it. */
export function axisUnit(maxBytes: number): { unit: string; scale: number } {
  const u = UNITS.find(([, s]) => maxBytes >= 2 * s);
  return u ? { unit: u[0], scale: u[1] } : { unit: 'B', scale: 1 };
}

/** Colour-blind-safe series colours (Okabe & Ito, "Color Universal Design", 2008), in drawing order. */
export const SERIES_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'] as const;
/** Grey for the "other" and "unknown" series (light and dark), apart from the seven colours. */
export const REST_COLOURS = ['#8c8c8c', '#5f5f5f'] as const;
