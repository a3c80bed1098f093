import { memo } from 'react';
import { niceAxis } from '../charts/chart-data';
import { axisUnit } from './chart-axis';

export interface StepSeries {
  name: string;
  colour: string;
  /** bytes at each of the chart's steps */
  values: number[];
  dashed?: boolean;
}

export interface StepChartProps {
  /** x of each value: the step after which it holds (0 = before the first event) */
  steps: number[];
  series: StepSeries[];
  /** areas stacked from the bottom (else lines) */
  stacked?: boolean;
  /** the step shown, marked by a vertical line (none when undefined) */
  current?: number;
  /** labels of the x axis's two ends, in place of "step N" (and no "now" label) */
  xEnds?: [string, string];
  /** a dashed horizontal line, e.g. the card's capacity */
  limit?: { value: number; name: string } | null;
  /** the legend under the plot (off when a table beside the chart names the series) */
  legend?: boolean;
  names: { step: string; current: string };
  /** a number in the axis unit */
  format: (v: number) => string;
}

/** Plot size in viewBox units: the plot stretches to its box, strokes keep their width. */
const W = 1000;
const H = 240;
const TOP = 8;

/**
 * Bytes per step as step lines or stacked areas, in plain SVG drawn in one React render: the lab's
 * charts of a 10^5-event run cost the page a few milliseconds (recharts took ~100 ms of main thread
 * per chart). Decorative to screen readers: each chart's section gives its summary and table.
 */
export const StepChart = memo(function StepChart(p: StepChartProps) {
  const n = p.steps.length;
  const tops = p.stacked ? p.steps.map((_, i) => p.series.reduce((s, x) => s + (x.values[i] ?? 0), 0)) : p.series.flatMap((s) => s.values);
  const maxBytes = Math.max(1, p.limit?.value ?? 0, ...tops);
  const { unit, scale } = axisUnit(maxBytes);
  const axis = niceAxis(maxBytes / scale);
  const first = p.steps[0] ?? 0;
  const span = Math.max(1, (p.steps[n - 1] ?? 0) - first);
  const x = (step: number) => ((step - first) / span) * W;
  const y = (bytes: number) => TOP + (1 - bytes / scale / axis.max) * (H - TOP);
  // a step line through (step_i, v_i), held until the next step
  const stepPath = (v: (i: number) => number) => p.steps.map((s, i) => `${i === 0 ? 'M' : 'H'}${x(s).toFixed(1)}${i === 0 ? ',' : 'V'}${y(v(i)).toFixed(1)}`).join('') + `H${W}`;
  const base = new Array<number>(n).fill(0);
  const shapes = p.series.map((s) => {
    if (!p.stacked) return stepPath((i) => s.values[i] ?? 0);
    const lower = [...base];
    for (let i = 0; i < n; i++) base[i] += s.values[i] ?? 0;
    const upper = [...base];
    // along the top to the right, back along the bottom to the left
    const back = p.steps.map((_, k) => n - 1 - k).map((i) => `H${x(p.steps[i + 1] ?? first + span).toFixed(1)}V${y(lower[i]).toFixed(1)}`);
    return `${stepPath((i) => upper[i])}V${y(lower[n - 1] ?? 0).toFixed(1)}${back.join('')}H${x(first).toFixed(1)}Z`;
  });
  return (
    <div className="step-chart">
      <div className="term-plot">
        <svg width="100%" height={H} aria-hidden="true">
          {axis.ticks.map((v) => (
            <text key={v} x="100%" dx={-6} y={y(v * scale)} dy="0.32em" textAnchor="end" className="tick">
              {p.format(v)}
            </text>
          ))}
          <text className="unit" transform={`translate(12 ${H / 2}) rotate(-90)`} textAnchor="middle">
            {unit}
          </text>
        </svg>
        <svg width="100%" height={H} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-hidden="true">
          {axis.ticks.map((v) => (
            <line key={v} className="grid" x1="0" x2={W} y1={y(v * scale)} y2={y(v * scale)} vectorEffect="non-scaling-stroke" />
          ))}
          {shapes.map((d, i) => {
            const s = p.series[i];
            return p.stacked ? (
              <path key={i} d={d} fill={s.colour} fillOpacity={0.8} stroke={s.colour} vectorEffect="non-scaling-stroke" />
            ) : (
              <path key={i} d={d} fill="none" stroke={s.colour} strokeWidth={2} strokeDasharray={s.dashed ? '6 4' : undefined} vectorEffect="non-scaling-stroke" />
            );
          })}
          {p.limit && <line className="limit" x1="0" x2={W} y1={y(p.limit.value)} y2={y(p.limit.value)} vectorEffect="non-scaling-stroke" />}
          {p.current !== undefined && <line className="now" x1={x(p.current)} x2={x(p.current)} y1={TOP} y2={H} vectorEffect="non-scaling-stroke" />}
        </svg>
      </div>
      <div className="step-chart-x small">
        {p.xEnds ? (
          <>
            <span>{p.xEnds[0]}</span>
            <span>{p.xEnds[1]}</span>
          </>
        ) : (
          <>
            <span>
              {p.names.step} {first}
            </span>
            {p.current !== undefined && (
              <span>
                {p.names.current}: {p.current}
              </span>
            )}
            <span>
              {p.names.step} {first + span}
            </span>
          </>
        )}
      </div>
      {(p.legend ?? true) && (
        <ul className="chart-legend">
          {p.series.map((s) => (
            <li key={s.name}>
              <span className={s.dashed ? 'swatch dashed' : 'swatch'} style={{ borderColor: s.colour, background: s.dashed ? 'transparent' : s.colour }} aria-hidden="true" />
              {s.name}
            </li>
          ))}
          {p.limit && (
            <li>
              <span className="swatch dashed limit" aria-hidden="true" />
              {p.limit.name}
            </li>
          )}
        </ul>
      )}
    </div>
  );
});
