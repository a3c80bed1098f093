// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import LabView from '../../../src/ui/lab/lab-view';
import { startAt, MiB } from './lab-page';
import { useApp } from '../../../src/state/store';

/** docs/reference/allocator.md §9 (ii), the 2.2+ message (NVML lists only this process), verbatim. */
const MSG_22 =
  'CUDA out of memory. Tried to allocate 200.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 124.00 MiB is free. Including non-PyTorch memory, this process has 900.00 MiB memory in use. Of the allocated memory 500.00 MiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)';

startAt('?view=lab&lab.panel=oom');

function paste(text: string) {
  fireEvent.change(screen.getByLabelText(/Paste the OOM error/), { target: { value: text } });
}

describe('OOM decoder panel', () => {
  test('a 2.2+ message inside a traceback: every field, derived figures, fragmentation diagnosis and advice', async () => {
    render(<LabView />);
    paste(`Traceback (most recent call last):\n  File "x.py", line 3\ntorch.OutOfMemoryError: ${MSG_22}\n`);
    const fields = await screen.findByRole('table');
    const row = (key: string) => fields.querySelector(`tr[data-field="${key}"]`) as HTMLElement;
    expect(within(row('requested')).getByText('200.00 MiB')).toBeTruthy();
    // 200 MiB in bytes, computed here: 200 × 2^20
    expect(row('requested').textContent).toContain((200 * MiB).toLocaleString('en-US'));
    expect(within(row('total')).getByText('1024.00 MiB')).toBeTruthy();
    expect(within(row('free')).getByText('124.00 MiB')).toBeTruthy();
    expect(within(row('thisProcess')).getByText('900.00 MiB')).toBeTruthy();
    expect(within(row('allocated')).getByText('500.00 MiB')).toBeTruthy();
    expect(within(row('unallocated')).getByText('400.00 MiB')).toBeTruthy();
    // reserved = allocated + unallocated = 900 MiB; the NVML figure equals it, so nothing outside PyTorch
    expect(screen.getByText('Reserved by PyTorch (allocated + unallocated)').nextElementSibling?.textContent).toContain('900.00 MiB');
    expect(screen.getByText(/this process outside PyTorch/i).nextElementSibling?.textContent).toContain('0 B');
    expect(screen.getByText('torch.OutOfMemoryError')).toBeTruthy();
    // diagnosis: 400 MiB cached ≥ 200 MiB asked, so fragmentation (docs/reference/allocator.md §7.2 "fragmentation hint")
    expect(screen.getByText(/^Fragmentation:/).textContent).toContain('400.00 MiB');
    const advice = document.querySelectorAll('.lab-advice li');
    expect(advice[0].getAttribute('data-advice')).toBe('expandable-segments');
    expect(advice[0].textContent).toContain('PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True');
    // suggested N: largest power of two ≤ 200 MiB (and > 20), i.e. 128
    expect(advice[1].getAttribute('data-advice')).toBe('max-split-size');
    expect(advice[1].textContent).toContain('max_split_size_mb:128');
    const link = screen.getByRole('link', { name: /calculator/ });
    expect(link.getAttribute('href')).toContain('gpu=1024.00mib');
  });

  test('text without an OOM message says so and shows an example', async () => {
    render(<LabView />);
    paste('RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!');
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Nothing to read here.');
    expect(status.querySelector('pre')?.textContent).toContain('CUDA out of memory. Tried to allocate');
    expect(screen.queryByRole('table')).toBeNull();
  });

  test('the example buttons load messages that decode (old 1.10–2.0 form: reserved given, unallocated derived)', async () => {
    render(<LabView />);
    fireEvent.click(screen.getByRole('button', { name: 'Old form (1.10–2.0)' }));
    await screen.findByRole('table');
    // 9.70 GiB reserved − 9.32 GiB allocated = 0.38 GiB = 389.12 MiB
    const dd = screen.getByText('Reserved but unallocated (cached free holes)').nextElementSibling!;
    expect(dd.textContent).toContain('389.12 MiB');
    expect(screen.getByText('PyTorch 1.10–2.0 (old message form)')).toBeTruthy();
  });

  test('the 1.10–2.0 example is not told to set expandable_segments (it arrived in 2.1) but to upgrade for it', async () => {
    render(<LabView />);
    fireEvent.click(screen.getByRole('button', { name: 'Old form (1.10–2.0)' }));
    await screen.findByRole('table');
    const codes = [...document.querySelectorAll('.lab-advice li')].map((li) => li.getAttribute('data-advice'));
    expect(codes).not.toContain('expandable-segments');
    expect(codes[0]).toBe('upgrade-pytorch');
    expect(document.querySelector('.lab-advice')?.textContent).toContain('Upgrade to PyTorch ≥ 2.1 to use expandable_segments:True');
  });

  test("the run's PYTORCH_CUDA_ALLOC_CONF: what it sets is left out of the advice; a bad one is named next to the field", async () => {
    history.replaceState(null, '', '/?view=lab&lab.panel=oom');
    render(<LabView />);
    paste(MSG_22);
    const conf = screen.getByLabelText('Your PYTORCH_CUDA_ALLOC_CONF (optional)');
    fireEvent.change(conf, { target: { value: 'expandable_segments:True' } });
    await screen.findByText(/already has expandable_segments:True/);
    const advice = [...document.querySelectorAll('.lab-advice li')];
    expect(advice.map((li) => li.getAttribute('data-advice'))).toEqual(['max-split-size', 'already-set']);
    // the export line keeps the setting the run already has
    expect(advice[0].querySelector('pre')?.textContent).toBe('export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,max_split_size_mb:128');
    await new Promise((r) => setTimeout(r, 400));
    expect(new URLSearchParams(location.search).get('lab.runconf')).toBe('expandable_segments:True');
    fireEvent.change(conf, { target: { value: 'expandable_segments:yes' } });
    expect((await screen.findByRole('alert')).textContent).toContain('Expected a single True/False argument for expandable_segments');
    expect(conf.getAttribute('aria-invalid')).toBe('true');
    // an invalid setting is ignored: the full advice is back
    expect(document.querySelector('.lab-advice li')?.getAttribute('data-advice')).toBe('expandable-segments');
  });

  test('in Chinese the labels, diagnosis and advice are translated', async () => {
    act(() => useApp.setState({ lang: 'zh' }));
    render(<LabView />);
    fireEvent.change(screen.getByLabelText(/粘贴 OOM 报错/), { target: { value: MSG_22 } });
    await screen.findByRole('table');
    expect(screen.getByText(/^碎片：/).textContent).toContain('400.00 MiB');
    expect(screen.getByText('怎么做')).toBeTruthy();
    expect(document.querySelector('.lab-advice li')?.textContent).toContain('在进程启动前设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True');
    expect(screen.getByText('尝试分配')).toBeTruthy();
  });

  test('a short pasted message is kept in the lab.oom key, other keys stay', async () => {
    history.replaceState(null, '', '/?v=1&gpu=a100-80gb-sxm4&view=lab&lab.panel=oom');
    render(<LabView />);
    paste(MSG_22);
    await new Promise((r) => setTimeout(r, 400));
    const q = new URLSearchParams(location.search);
    expect(q.get('lab.oom')).toBe(MSG_22);
    expect(q.get('gpu')).toBe('a100-80gb-sxm4');
    expect(location.search.startsWith('?v=1&gpu=a100-80gb-sxm4&view=lab&')).toBe(true);
  });
});

test('the lab tabs follow the keyboard: arrows move and select, Home/End jump', () => {
  render(<LabView />);
  const tab = (name: string) => screen.getByRole('tab', { name });
  fireEvent.keyDown(tab('OOM decoder'), { key: 'ArrowRight' });
  expect(tab('memory_stats() / memory_summary() reader').getAttribute('aria-selected')).toBe('true');
  expect(document.activeElement).toBe(tab('memory_stats() / memory_summary() reader'));
  fireEvent.keyDown(tab('memory_stats() / memory_summary() reader'), { key: 'End' });
  expect(tab('Simulator').getAttribute('aria-selected')).toBe('true');
  fireEvent.keyDown(tab('Simulator'), { key: 'ArrowRight' });
  expect(tab('OOM decoder').getAttribute('aria-selected')).toBe('true');
  expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('lab-tab-oom');
});
