// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import LabView from '../../../src/ui/lab/lab-view';
import { startAt, MiB, stat, exactEn } from './lab-page';

startAt('?view=lab&lab.panel=sim');

test('a pasted memory history runs as imported; its text can be edited', async () => {
  // the shape written by torch.cuda.memory._snapshot(): device_traces[device] = [TraceEntry…]
  const json = JSON.stringify({
    device_traces: [
      [
        { action: 'segment_alloc', addr: 0x7000000000, size: 20 * MiB, stream: 0 },
        { action: 'alloc', addr: 0x7000000000, size: 4 * MiB, stream: 0 },
        { action: 'alloc', addr: 0x7000400000, size: 2 * MiB, stream: 0 },
        { action: 'free_requested', addr: 0x7000000000, size: 4 * MiB, stream: 0 },
        { action: 'free_completed', addr: 0x7000000000, size: 4 * MiB, stream: 0 },
      ],
    ],
  });
  render(<LabView />);
  fireEvent.click(screen.getByText('Import a real trace (snapshot pickle or memory history JSON)'));
  fireEvent.change(screen.getByLabelText('Memory history JSON'), { target: { value: json } });
  fireEvent.click(screen.getByRole('button', { name: 'Import' }));
  expect((await screen.findByText(/^Imported device 0/)).textContent).toBe('Imported device 0: 2 allocations, 1 frees; the real run made 1 segment allocations and 0 OOMs.');
  // imported runs keep their stack frames, which the editor's text has no room for
  await screen.findByText(/^The imported history has 3 events/);
  expect(screen.queryByLabelText('Trace')).toBeNull();
  await screen.findByText('Step 3 of 3');
  // 4 MiB and 2 MiB are 1–10 MiB requests: one 20 MiB segment, split twice (docs/reference/allocator.md §1, §4);
  // after freeing the 4 MiB tensor, 2 MiB stay allocated in 20 MiB reserved
  expect(stat('reserved_bytes.all.current')).toBe(exactEn(20 * MiB));
  expect(stat('allocated_bytes.all.current')).toBe(exactEn(2 * MiB));
  expect(stat('segment.all.current')).toBe('1');
  fireEvent.click(screen.getByRole('button', { name: 'Edit as text (slow)' }));
  expect(screen.getByLabelText<HTMLTextAreaElement>('Trace').value).toBe('alloc 0x7000000000 4194304\nalloc 0x7000400000 2097152\nfree 0x7000000000\n');
  expect(stat('allocated_bytes.all.current')).toBe(exactEn(2 * MiB));
});

test('JSON without device traces is refused by name', async () => {
  render(<LabView />);
  fireEvent.click(screen.getByText('Import a real trace (snapshot pickle or memory history JSON)'));
  fireEvent.change(screen.getByLabelText('Memory history JSON'), { target: { value: '{"segments": []}' } });
  fireEvent.click(screen.getByRole('button', { name: 'Import' }));
  expect((await screen.findByRole('alert')).textContent).toContain("no 'device_traces' list");
});

test('a long history runs as imported; the notice offers the text or the presets', async () => {
  // 5001 tensors of 512 B: small-pool blocks, 4096 to a 2 MiB segment (docs/reference/allocator.md §1), so 2 segments
  const entries = Array.from({ length: 5001 }, (_, i) => ({ action: 'alloc', addr: 0x7000000000 + 512 * i, size: 512, stream: 0 }));
  render(<LabView />);
  fireEvent.click(screen.getByText('Import a real trace (snapshot pickle or memory history JSON)'));
  fireEvent.change(screen.getByLabelText('Memory history JSON'), { target: { value: JSON.stringify({ device_traces: [entries] }) } });
  fireEvent.click(screen.getByRole('button', { name: 'Import' }));
  await screen.findByText(/^The imported history has 5,001 events/);
  expect(screen.queryByLabelText('Trace')).toBeNull();
  await screen.findByText('Step 5001 of 5001');
  expect(stat('segment.all.current')).toBe('2');
  expect(stat('reserved_bytes.all.current')).toBe(exactEn(2 * 2 * MiB));
  expect(stat('allocated_bytes.all.current')).toBe(exactEn(5001 * 512));
  fireEvent.click(screen.getByRole('button', { name: 'Back to the presets' }));
  expect(screen.getByLabelText<HTMLSelectElement>('Preset').value).toBe('classic');
});
