import { useMemo } from 'react';
import type { CapacityLine } from './chart-data';

/**
 * recharts props shared by the lazy memory charts (sweep, timeline), with stable identities: recharts 3 keeps axes,
 * reference lines and tooltips in its own store and re-registers one (a store update, then another
 * synchronous render of the chart) whenever a prop object or function it was given is new.
 */
export const TOOLTIP_STYLE = { background: 'var(--panel)', border: '1px solid var(--border)', color: 'var(--text)' };
/** Tooltip title and rows in the page's text colour (recharts' defaults are black, unreadable on a dark panel). */
export const TOOLTIP_LABEL_STYLE = { color: 'var(--text)', fontWeight: 600 };
export const TOOLTIP_ITEM_STYLE = { color: 'var(--text)' };

/** The value axis title: the display unit, rotated, inside the left edge. */
export function useUnitLabel(unit: string) {
  return useMemo(() => ({ value: unit, angle: -90, position: 'insideLeft' as const, fill: 'var(--muted)' }), [unit]);
}

/** One label per capacity line (the GPU's name, top right of the line), rebuilt only when the lines change. */
export function useLineLabels(lines: CapacityLine[]) {
  return useMemo(() => lines.map((l) => ({ value: l.label, position: 'insideTopRight' as const, fill: 'var(--text)', fontSize: 12 })), [lines]);
}
