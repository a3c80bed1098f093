import { memo, useMemo } from 'react';
import type { TermId } from '../../core/types';
import { TERM_COLOR } from '../calculator/term-colors';
import { useT } from '../i18n';
import { axisMax, barSummary, niceAxis, type BarRow, type CapacityLine } from './chart-data';
import { ChartLegend, useTermLegend } from './chart-legend';

export interface TermChartProps {
  rows: BarRow[];
  terms: TermId[];
  lines: CapacityLine[];
  termName: (id: TermId) => string;
  unit: string;
  format: (v: number) => string;
  title: string;
}

/** Plot height in px: the top air, the bars, the row of column labels. */
const H = 280;
const TOP = 16;
const X_LABELS = 24;
/** A bar's share of its column (the rest is the gap on either side). */
const BAR = 0.6;

/**
 * Stacked bar of the terms, one bar per scenario, a dashed capacity line per chosen GPU: plain SVG
 * drawn in the first render (no chart library on the first screen). The figure is one labelled
 * image whose name lists every value drawn, so a screen reader hears the numbers and the keyboard
 * finds no stop inside it; hovering a segment shows its value (SVG title). Columns are laid out in
 * percentages of the plot's width, so the chart follows its box without measuring it.
 */
export const TermChart = memo(function TermChart({ rows, terms, lines, termName, unit, format, title }: TermChartProps) {
  const t = useT();
  const label = useMemo(
    () =>
      barSummary(title, rows, terms, lines, {
        term: termName,
        value: (v) => `${format(v)} ${unit}`,
        bar: (l, parts, total) => t('chart.bar', { label: l, parts, total }),
        line: (gpu, cap) => t('chart.line', { gpu, cap }),
        listSep: t('chart.listSep'),
      }),
    [t, title, rows, terms, lines, termName, format, unit],
  );
  const legend = useTermLegend(terms, termName);
  const axis = niceAxis(axisMax(rows, lines, terms));
  const y = (v: number) => TOP + (1 - v / axis.max) * (H - TOP - X_LABELS);
  const band = 100 / Math.max(1, rows.length);
  return (
    <figure className="chart-box term-chart" role="img" aria-label={label} data-testid="term-chart">
      <div className="term-plot">
        <svg className="term-axis" width="100%" height={H} aria-hidden="true">
          {axis.ticks.map((v) => (
            <text key={v} x="100%" dx={-6} y={y(v)} dy="0.32em" textAnchor="end" className="tick">
              {format(v)}
            </text>
          ))}
          <text className="unit" transform={`translate(12 ${(H - X_LABELS + TOP) / 2}) rotate(-90)`} textAnchor="middle">
            {unit}
          </text>
        </svg>
        <svg className="term-bars" width="100%" height={H} aria-hidden="true">
          {axis.ticks.map((v) => (
            <line key={v} className="grid" x1="0" x2="100%" y1={y(v)} y2={y(v)} />
          ))}
          {rows.map((row, i) => {
            let base = 0;
            const x = `${band * (i + (1 - BAR) / 2)}%`;
            return (
              <g key={row.label} className="term-bar">
                {terms.map((id) => {
                  const v = row[id] ?? 0;
                  if (v <= 0) return null;
                  const top = y(base + v);
                  const h = y(base) - top;
                  base += v;
                  return (
                    <rect key={id} className="term-seg" data-term={id} x={x} width={`${band * BAR}%`} y={top} height={h} fill={TERM_COLOR[id]}>
                      <title>{`${row.label} · ${termName(id)}: ${format(v)} ${unit}`}</title>
                    </rect>
                  );
                })}
                <text x={`${band * (i + 0.5)}%`} y={H - 6} textAnchor="middle" className="tick">
                  {row.label}
                </text>
              </g>
            );
          })}
          <line className="axis" x1="0" x2="100%" y1={y(0)} y2={y(0)} />
          {lines.map((l) => (
            <g key={l.label} className="cap-line">
              <line x1="0" x2="100%" y1={y(l.value)} y2={y(l.value)} />
              <text x="100%" dx={-4} y={y(l.value) - 4} textAnchor="end">
                {l.label}
              </text>
            </g>
          ))}
        </svg>
      </div>
      <ChartLegend items={legend} />
    </figure>
  );
});
