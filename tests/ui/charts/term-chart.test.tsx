// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { TermChart } from '../../../src/ui/charts/term-chart';
import { TERM_COLOR } from '../../../src/ui/calculator/term-colors';

afterEach(() => cleanup());

const names = { weights: 'Weights', 'kv-cache': 'KV cache' } as Record<string, string>;

test('one labelled image: a segment per term, heights in proportion, the capacity line at its value, no tab stop', () => {
  // weights 12 and KV 4 (display unit) under a 24 line: axis top 24 x 1.08 = 25.92 -> ticks 0, 10, 20, 30
  render(
    <TermChart
      rows={[{ label: 'A', weights: 12, 'kv-cache': 4 }]}
      terms={['weights', 'kv-cache']}
      lines={[{ label: 'RTX 4090', value: 24 }]}
      unit="GiB"
      title="Memory by term"
      termName={(id) => names[id]}
      format={(v) => String(v)}
    />,
  );
  const fig = screen.getByRole('img', { name: 'Memory by term — A: Weights 12 GiB, KV cache 4 GiB (stacked: 16 GiB) — RTX 4090 holds 24 GiB' });
  const segs = [...fig.querySelectorAll('rect.term-seg')];
  expect(segs.map((r) => r.getAttribute('data-term'))).toEqual(['weights', 'kv-cache']);
  expect(segs.map((r) => r.getAttribute('fill'))).toEqual([TERM_COLOR.weights, TERM_COLOR['kv-cache']]);
  // plot 280 px: 16 px air on top, 24 px of column labels under it, 240 px for 0..30 -> 8 px per unit
  const h = segs.map((r) => Number(r.getAttribute('height')));
  expect(h[0]).toBeCloseTo(12 * 8, 9);
  expect(h[1]).toBeCloseTo(4 * 8, 9);
  // stacked: the KV segment sits on top of the weights, whose bottom is the zero line at 16 + 240
  expect(Number(segs[0].getAttribute('y')) + h[0]).toBeCloseTo(256, 9);
  expect(Number(segs[1].getAttribute('y')) + h[1]).toBeCloseTo(Number(segs[0].getAttribute('y')), 9);
  expect([...fig.querySelectorAll('.term-axis .tick')].map((e) => e.textContent)).toEqual(['0', '10', '20', '30']);
  expect(Number(fig.querySelector('.cap-line line')!.getAttribute('y1'))).toBeCloseTo(256 - 24 * 8, 9);
  // hovering a segment names it (SVG title); the legend names both terms
  expect(segs[0].querySelector('title')!.textContent).toBe('A · Weights: 12 GiB');
  expect([...fig.querySelectorAll('.chart-legend li')].map((e) => e.textContent)).toEqual(['Weights', 'KV cache']);
  expect(fig.querySelectorAll('[tabindex]').length).toBe(0);
});
