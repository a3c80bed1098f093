// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useApp } from '../../../src/state/store';
import LabView from '../../../src/ui/lab/lab-view';
import { startAt, MiB, stat, exactEn } from './lab-page';

startAt('?view=lab&lab.panel=sim&lab.preset=classic');

describe('simulator panel', () => {
  test('the classic preset ends with docs/reference/allocator.md §9 (i) step C figures, and steps back and forward', async () => {
    render(<LabView />);
    await screen.findByText('Step 16 of 16');
    // Step C: reserved 104 MiB, allocated 84 MiB, 3 segments, allocation cur/peak/allocated/freed 6/10/11/5
    expect(stat('reserved_bytes.all.current')).toBe(exactEn(109_051_904));
    expect(stat('allocated_bytes.all.current')).toBe(exactEn(88_080_384));
    expect(109_051_904).toBe(104 * MiB);
    expect(stat('segment.all.current')).toBe('3');
    expect(['current', 'peak', 'allocated', 'freed'].map((f) => stat(`allocation.all.${f}`))).toEqual(['6', '10', '11', '5']);
    expect(stat('inactive_split_bytes.all.allocated')).toBe(exactEn(54_525_952));
    expect(document.querySelectorAll('.lab-seg').length).toBe(3);

    // one step back: before the 64 MiB tensor, i.e. step B (reserved 40 MiB, allocated 20 MiB, 5 holes)
    fireEvent.click(screen.getByRole('button', { name: 'Step back' }));
    expect(screen.getByText('Step 15 of 16')).toBeTruthy();
    expect(stat('reserved_bytes.all.current')).toBe(exactEn(41_943_040));
    expect(stat('allocated_bytes.all.current')).toBe(exactEn(20_971_520));
    expect(stat('inactive_split.all.current')).toBe('5');
    // 20 MiB cached in five 4 MiB holes: the largest tensor the cache can take without cudaMalloc is 4 MiB
    expect(screen.getByTestId('lab-cache').textContent).toMatch(/^Cached but free 20\.00 MiB; largest free block 4\.00 MiB,/);
    expect(document.querySelectorAll('.lab-seg').length).toBe(2);
    // S1 = [F4][A4][F4][A4][F4]: three split free holes and two tensors
    const s1 = document.querySelectorAll('.lab-seg')[0];
    expect([...s1.querySelectorAll('[role="listitem"]')].map((b) => b.className.replace('blk ', ''))).toEqual(['blk-split', 'blk-allocated', 'blk-split', 'blk-allocated', 'blk-split']);
    expect(s1.querySelectorAll('[role="listitem"]')[1].getAttribute('aria-label')).toContain('“t1”');

    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    expect(stat('reserved_bytes.all.current')).toBe(exactEn(109_051_904));

    // the slider: step 10 is the last of the ten 4 MiB allocations (step A: reserved = allocated = 40 MiB)
    fireEvent.change(screen.getByRole('slider', { name: 'Step through the trace' }), { target: { value: '9' } });
    expect(screen.getByText('Step 10 of 16')).toBeTruthy();
    expect(stat('allocated_bytes.all.current')).toBe(exactEn(41_943_040));
    expect(stat('num_device_alloc')).toBe('2');

    fireEvent.click(screen.getByRole('button', { name: 'Go to the start' }));
    expect(screen.getByText('Before the first event')).toBeTruthy();
    expect(stat('reserved_bytes.all.current')).toBe('0 B');
    expect(screen.getByText('No segments: PyTorch holds no memory at this step.')).toBeTruthy();
  });

  test('the fragmentation preset runs out of memory; the message opens in the decoder', async () => {
    render(<LabView />);
    fireEvent.change(screen.getByLabelText('Preset'), { target: { value: 'fragmentation-oom' } });
    await screen.findByText(/→ OUT OF MEMORY/);
    // the events before it: the four frees that left 100 MiB holes, then the 200 MiB request (lines 14–18)
    const lead = [...screen.getByTestId('lab-lead-up').querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(lead.slice(-2)).toEqual([
      ['17', 'free B7', '', '−100.00 MiB', '', 'done'],
      ['18', 'alloc c', '200.00 MiB', '', '', 'OUT OF MEMORY'],
    ]);
    // docs/reference/allocator.md §9 (ii): no state change on OOM, reserved 900 MiB, allocated 500 MiB, num_ooms 1, one retry
    expect(stat('reserved_bytes.all.current')).toBe(exactEn(900 * MiB));
    expect(stat('allocated_bytes.all.current')).toBe(exactEn(500 * MiB));
    expect(stat('num_ooms')).toBe('1');
    expect(stat('num_alloc_retries')).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Decode this message' }));
    expect(screen.getByRole('tab', { name: 'OOM decoder' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText(/^Fragmentation:/)).toBeTruthy();
  });

  test('side by side: §9 (i) step D under default, expandable_segments and max_split_size_mb:128', async () => {
    render(<LabView />);
    fireEvent.change(screen.getByLabelText('Preset'), { target: { value: 'classic-followup' } });
    await screen.findByText('The same trace under other settings');
    const row = [...document.querySelectorAll('.lab-compare tbody tr')].find((r) => r.querySelector('th')?.textContent === 'Reserved')!;
    const exact = [...row.querySelectorAll('td span')].map((s) => s.getAttribute('title'));
    // after big2: default 176,160,768; expandable 167,772,160; 128 MiB identical to default
    expect(exact).toEqual([exactEn(176_160_768), exactEn(167_772_160), exactEn(176_160_768)]);
  });

  test('parse errors are listed with their line numbers next to the editor', async () => {
    render(<LabView />);
    fireEvent.change(screen.getByLabelText('Trace'), { target: { value: 'alloc a 4MiB\nalloc b\nfree c\n' } });
    const alert = await screen.findByText('The trace has errors:');
    const items = [...alert.parentElement!.querySelectorAll('li')];
    expect(items.map((li) => li.getAttribute('data-line'))).toEqual(['2', '3']);
    expect(items[0].textContent).toMatch(/^line 2:/);
    expect(document.querySelector('.lab-gutter .bad')?.textContent?.trim()).toBe('2');
    expect(screen.getByLabelText<HTMLSelectElement>('Preset').value).toBe('');
  });

  test('capacity and PYTORCH_CUDA_ALLOC_CONF override the trace; bad settings are named', async () => {
    render(<LabView />);
    fireEvent.change(screen.getByLabelText('Preset'), { target: { value: 'fragmentation-oom' } });
    fireEvent.click(screen.getByRole('button', { name: 'max_split_size_mb:128' }));
    // docs/reference/allocator.md §9 (ii) with max_split_size_mb:128: no OOM, final reserved = allocated = 700 MiB
    await screen.findByText('Step 16 of 16');
    expect(stat('reserved_bytes.all.current')).toBe(exactEn(734_003_200));
    expect(stat('max_split_size')).toBe(exactEn(128 * MiB));
    fireEvent.change(screen.getByLabelText('PYTORCH_CUDA_ALLOC_CONF'), { target: { value: 'max_split_size_mb:10' } });
    expect((await screen.findByText('The settings are not valid:')).parentElement?.textContent).toContain('must be > 20');
    fireEvent.change(screen.getByLabelText('GPU capacity'), { target: { value: 'lots' } });
    expect(screen.getByText(/^Not a size:/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('GPU capacity'), { target: { value: '0 GiB' } });
    expect(screen.getByText('The capacity must be more than 0 bytes.')).toBeTruthy();
    // a card beyond the simulator's range is refused by name, never simulated as NaN/Infinity
    fireEvent.change(screen.getByLabelText('GPU capacity'), { target: { value: '2048 TiB' } });
    fireEvent.change(screen.getByLabelText('PYTORCH_CUDA_ALLOC_CONF'), { target: { value: '' } });
    expect((await screen.findByText('The settings are not valid:')).parentElement?.textContent).toMatch(/capacity/);
  });
});

test('in Chinese, trace errors and settings errors are explained by code with the original text beside', async () => {
  act(() => useApp.setState({ lang: 'zh' }));
  render(<LabView />);
  fireEvent.change(screen.getByLabelText('轨迹'), { target: { value: 'alloc a 4MiB\nfree b\n' } });
  const item = (await screen.findByText('轨迹有错误：')).parentElement!.querySelector('li')!;
  expect(item.textContent).toMatch(/^第 2 行：这个名称当前没有分配/);
  expect(item.textContent).toContain("'b' was never allocated");
  fireEvent.change(screen.getByLabelText('轨迹'), { target: { value: 'alloc a 4MiB\n' } });
  fireEvent.change(screen.getByLabelText('PYTORCH_CUDA_ALLOC_CONF'), { target: { value: 'expandable_segments:true' } });
  const bad = (await screen.findByText('设置无效：')).parentElement!;
  expect(bad.textContent).toContain('这个选项只接受 True 或 False');
  expect(bad.textContent).toContain('Expected a single True/False argument for expandable_segments');
});
