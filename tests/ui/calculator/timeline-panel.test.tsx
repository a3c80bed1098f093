// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { TimelinePanel } from '../../../src/ui/calculator/timeline-panel';
import { initialData, useApp } from '../../../src/state/store';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { stepTimeline } from '../../../src/core/timeline';
import { formatBytes } from '../../../src/ui/i18n/format';

beforeEach(() => useApp.setState(initialData()));
afterEach(() => cleanup());

// tiny 2-layer model: replays in a few milliseconds
const tiny = {
  ...defaultScenario(),
  model: 'custom',
  mode: 'training' as const,
  method: 'full' as const,
  precision: 'bf16' as const,
  seq: 128,
  arch: { family: 'llama', hidden: 512, layers: 2, heads: 8, kvHeads: 8, headDim: 64, ffn: 1024, vocab: 1000 },
};

test('timeline: replays only when asked; the summary names the peaks in the page unit', () => {
  render(<TimelinePanel s={tiny} />);
  expect(screen.queryByText(/Peak allocated/)).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Replay the step through the caching allocator' }));
  const tl = stepTimeline(tiny);
  if (!tl.ok) throw new Error('rejected');
  const unit = useApp.getState().unit;
  expect(screen.getByText(new RegExp(`Peak allocated ${formatBytes(tl.value.peakAllocated, unit, 'en').replace('.', '\\.')}`))).toBeTruthy();
});

test('timeline: shown at once with varied lengths, in Chinese too', () => {
  useApp.setState({ lang: 'zh' });
  render(<TimelinePanel s={{ ...tiny, lengths: 'varied', seq: 512 }} />);
  expect(screen.getByText(/分配峰值/)).toBeTruthy();
});
