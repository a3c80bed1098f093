// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import AccuracyView from '../../../src/ui/accuracy/accuracy-view';
import { useApp, initialData } from '../../../src/state/store';
import fixture from '../../../src/validation/fixtures/measured-dev.json';
import logs from '../../../src/validation/fixtures/runtime-logs.json';

afterEach(() => {
  cleanup();
  useApp.setState(initialData());
});

const rowIds = (testId: string) => [...screen.getByTestId(testId).querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-row'));
const cellsOf = (testId: string, id: string) => [...screen.getByTestId(testId).querySelectorAll(`tr[data-row="${id}"] td`)].map((td) => td.textContent);

describe('Accuracy view', () => {
  test('every published row appears once: scored in the table or listed as skipped with a reason', () => {
    render(<AccuracyView />);
    const scored = rowIds('acc-rows');
    const skipped = rowIds('acc-skipped');
    expect([...scored, ...skipped].sort()).toEqual(fixture.map((r) => r.id).sort());
    // torchtune single-GPU rows with torch.compile on are scored; the A6000 rows (settings unknown) are skipped
    const compiled = fixture.filter((r) => (r.settings as Record<string, unknown>).compile === true && (r.settings as Record<string, unknown>).num_gpus === 1);
    expect(compiled.length).toBeGreaterThan(0);
    for (const r of compiled) {
      if (String((r.settings as Record<string, unknown>).gpu).includes('A6000')) expect(skipped).toContain(r.id);
      else expect(scored).toContain(r.id);
    }
    for (const id of skipped) expect(cellsOf('acc-skipped', id!).at(-1)).not.toBe('');
  });

  test('a row shows the published figure: Qwen2.5-0.5B bf16, 1 → 2048 tokens, 0.97 GiB measured', () => {
    render(<AccuracyView />);
    const cells = cellsOf('acc-rows', 'm0001');
    expect(cells).toContain('Qwen2.5-0.5B-Instruct');
    expect(cells).toContain('1 → 2,048');
    expect(cells).toContain('0.97 GiB');
    // the error cell agrees with the estimate cell: 100 · (estimate − 0.97) / 0.97, to the shown precision
    // columns: row, model, measured, estimate, error, …
    expect(cells[2]).toBe('0.97 GiB');
    const est = Number(cells[3].replace(' GiB', ''));
    const err = Number(cells[4].replace(' %', ''));
    expect(Math.abs(err - (100 * (est - 0.97)) / 0.97)).toBeLessThan(0.6);
  });

  test('the source filter leaves only that publication, and says how many rows remain', () => {
    render(<AccuracyView />);
    const torchtune = fixture.filter((r) => r.source.includes('torchtune')).map((r) => r.id);
    fireEvent.change(screen.getByLabelText('Source'), { target: { value: 'torchtune' } });
    const shown = rowIds('acc-rows');
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(torchtune).toContain(id);
    expect(screen.getByTestId('acc-shown').textContent).toMatch(new RegExp(`^${shown.length} of \\d+ measured rows shown`));
    fireEvent.change(screen.getByLabelText('Mode'), { target: { value: 'inference' } });
    expect(rowIds('acc-rows')).toEqual([]);
  });

  test('the model filter and sorting by error', () => {
    render(<AccuracyView />);
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'Qwen2.5-7B-Instruct' } });
    const ids = rowIds('acc-rows');
    const expected = fixture.filter((r) => r.model === 'Qwen2.5-7B-Instruct').map((r) => r.id);
    expect(ids.sort()).toEqual(expected.sort());
    const header = within(screen.getByTestId('acc-rows')).getByRole('button', { name: /Error/ });
    const errs = () => [...screen.getByTestId('acc-rows').querySelectorAll('tbody tr td:nth-child(5)')].map((td) => Number(td.textContent.replace(' %', '')));
    fireEvent.click(header);
    expect(header.closest('th')!.getAttribute('aria-sort')).toBe('descending');
    expect(errs()).toEqual([...errs()].sort((a, b) => b - a));
    fireEvent.click(header);
    expect(header.closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    expect(errs()).toEqual([...errs()].sort((a, b) => a - b));
  });

  test('runtime start-up logs: every published log row is shown with what the runtime printed', () => {
    render(<AccuracyView />);
    const table = screen.getByTestId('acc-logs');
    const shown = new Set([...table.querySelectorAll('tbody tr td:first-child')].map((td) => td.textContent));
    expect([...shown].sort()).toEqual(logs.rows.map((r) => r.id).sort());
    // llama_kv_cache_init: CUDA0 KV buffer size = 256.00 MiB (fedora-copr/logdetective PR 106)
    const kv = [...table.querySelectorAll('tbody tr')].find((tr) => tr.textContent.startsWith('lcpp-mistral7b-v02-f16kv-ctx2048') && tr.textContent.includes('kv-buffer'))!;
    expect(kv.querySelectorAll('td')[3].textContent).toBe('256 MiB');
  });

  test('Chinese: headings, modes and skip reasons translated', () => {
    useApp.setState({ lang: 'zh' });
    render(<AccuracyView />);
    expect(screen.getByRole('heading', { name: '按场景类型的误差' })).toBeTruthy();
    expect(screen.getAllByText('未打包的数据集：序列长度未知').length).toBeGreaterThan(0);
    expect(within(screen.getByTestId('acc-by-kind')).getByText('推理 · HF transformers · 16/32 位权重')).toBeTruthy();
  });
});
