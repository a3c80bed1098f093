// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import LabView from '../../../src/ui/lab/lab-view';
import { startAt, MiB, exactEn } from './lab-page';
import { readFileSync } from 'node:fs';

/** The full lines of docs/reference/allocator.md §6.2 (example (i) after step C). */
const TABLE = `|===========================================================================|
|                  PyTorch CUDA memory summary, device ID 0                 |
|---------------------------------------------------------------------------|
|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |
|===========================================================================|
|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |
|---------------------------------------------------------------------------|
| Allocated memory      |  86016 KiB |  86016 KiB | 106496 KiB |  20480 KiB |
|       from large pool |  86016 KiB |  86016 KiB | 106496 KiB |  20480 KiB |
|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 KiB |
|---------------------------------------------------------------------------|
| GPU reserved memory   | 106496 KiB | 106496 KiB | 106496 KiB |      0 B   |
|       from large pool | 106496 KiB | 106496 KiB | 106496 KiB |      0 B   |
|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |
|---------------------------------------------------------------------------|
| Non-releasable memory |  20480 KiB |  20480 KiB |  53248 KiB |  32768 KiB |
|---------------------------------------------------------------------------|
| Allocations           |       6    |      10    |      11    |       5    |
|===========================================================================|
`;

startAt('?view=lab&lab.panel=summary');

const figure = (label: RegExp) => [...document.querySelectorAll('.lab-dl dt')].find((d) => label.test(d.textContent ?? ''))?.nextElementSibling?.textContent ?? '';

describe('memory_summary() reader panel', () => {
  test('the docs/reference/allocator.md §6.2 table: figures in exact bytes, rows under memory_stats() keys', async () => {
    render(<LabView />);
    fireEvent.change(screen.getByLabelText(/Paste the output of print/), { target: { value: TABLE } });
    await screen.findByText('Fragmentation figures');
    // 86016 KiB = 84 MiB allocated, 106496 KiB = 104 MiB reserved, 20480 KiB = 20 MiB non-releasable
    expect(figure(/^Allocated \(allocated_bytes/)).toContain(exactEn(86016 * 1024));
    expect(figure(/^Reserved \(reserved_bytes/)).toContain(exactEn(104 * MiB));
    expect(figure(/^Cached but free/)).toContain('20.00 MiB');
    expect(figure(/^Non-releasable/)).toContain('20.00 MiB');
    // every cached free byte sits in split segments, so empty_cache() could release nothing
    expect(figure(/^Releasable by empty_cache/)).toContain('0 B');
    expect(screen.getByText('Device 0: 0 OOMs, 0 cudaMalloc retries')).toBeTruthy();
    expect(screen.getAllByText('allocated_bytes.large_pool').length).toBe(1);
  });

  test('the example (fragmentation preset after its OOM) is diagnosed as fragmentation with the expandable advice', async () => {
    render(<LabView />);
    fireEvent.click(screen.getByRole('button', { name: 'memory_summary() table' }));
    await screen.findByText('Fragmentation figures');
    // docs/reference/allocator.md §9 (ii) after step 3: reserved 900 MiB, inactive_split_bytes 400 MiB
    expect(figure(/^Non-releasable/)).toContain(exactEn(400 * MiB));
    expect(figure(/^Reserved \(reserved_bytes/)).toContain(exactEn(900 * MiB));
    expect(screen.getByText('Device 0: 1 OOMs, 1 cudaMalloc retries')).toBeTruthy();
    expect(document.querySelector('.lab-advice li')?.getAttribute('data-advice')).toBe('expandable-segments');
  });

  test('other text gets the nothing-found notice', async () => {
    render(<LabView />);
    fireEvent.change(screen.getByLabelText(/Paste the output of print/), { target: { value: 'hello world' } });
    expect((await screen.findByRole('status')).textContent).toContain('No PyTorch out-of-memory message, memory_stats() dict or memory_summary() table found.');
  });

  test('a pprint-ed memory_stats() dict (tests/fixtures/memory-stats): figures, retries diagnosis, notes and advice', async () => {
    render(<LabView />);
    const dict = readFileSync('tests/fixtures/memory-stats/retries-pprint.txt', 'utf8');
    fireEvent.change(screen.getByLabelText(/Paste the output of print/), { target: { value: dict } });
    await screen.findByText('torch.cuda.memory_stats(), printed as dict: 122 entries read.');
    // 19 GiB allocated now, 21 GiB at the peak; 100 MiB of holes in a 20 GiB reserve = 0.488 %
    expect(figure(/^Allocated now \/ peak/)).toBe('19.00 GiB / 21.00 GiB');
    expect(figure(/^Non-releasable/)).toContain('(0.488 % of reserved)');
    expect(screen.getByText(/^cudaMalloc failed 37 times/)).toBeTruthy();
    expect(screen.getByText(/^3 device-wide synchronisations/)).toBeTruthy();
    expect(document.querySelector('.lab-advice li pre')?.textContent).toBe('export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,expandable_segments:True');
  });

  test('the memory_stats() example reads as the fragmentation of docs/reference/allocator.md §9 (ii)', async () => {
    render(<LabView />);
    fireEvent.click(screen.getByRole('button', { name: 'memory_stats() dict' }));
    await screen.findByText(/^torch\.cuda\.memory_stats\(\), printed as OrderedDict/);
    expect(figure(/^Non-releasable/)).toContain('400.00 MiB');
    expect(document.querySelector('.lab-advice li')?.getAttribute('data-advice')).toBe('expandable-segments');
  });
});
