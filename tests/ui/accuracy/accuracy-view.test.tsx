// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import AccuracyView from '../../../src/ui/accuracy/accuracy-view';
import { useApp, initialData } from '../../../src/state/store';
import fixture from '../../../src/validation/fixtures/measured-dev.json';
import logs from '../../../src/validation/fixtures/runtime-logs.json';
import { validationReport } from '../../../src/validation/report';
import { groupOf } from '../../../src/validation/score';

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

  test('signed error: per row over / under, per group the bias and the 10th–90th percentile of the signed error', () => {
    render(<AccuracyView />);
    const scored = validationReport().scored;
    const under = scored.find((r) => r.errPct < -1)!;
    const over = scored.find((r) => r.errPct > 1)!;
    const errCell = (id: string) => screen.getByTestId('acc-rows').querySelector(`tr[data-row="${id}"] td:nth-child(5) span`)!;
    expect(errCell(under.row.id).textContent.startsWith('-')).toBe(true);
    expect(errCell(under.row.id).getAttribute('title')).toBe('the estimate is below the measurement (under-estimate)');
    expect(errCell(over.row.id).textContent.startsWith('+')).toBe(true);
    expect(errCell(over.row.id).getAttribute('title')).toBe('the estimate is above the measurement (over-estimate)');
    // the group of the GPTQ-int4 Qwen rows: nearest-rank median / p10 / p90 of its signed errors, to one decimal
    const g = 'Qwen2.5 speed benchmark / gptq-int4';
    const errs = scored
      .filter((r) => groupOf(r) === g)
      .map((r) => r.errPct)
      .sort((a, b) => a - b);
    const at = (q: number) => errs[Math.ceil(q * errs.length) - 1];
    const fmt = (x: number) => {
      const r = Math.round(x * 10) / 10;
      return `${r > 0 ? '+' : ''}${r} %`;
    };
    const cells = [...screen.getByTestId('acc-by-group').querySelectorAll(`tr[data-row="${g}"] td`)].map((td) => td.textContent);
    expect(cells[0]).toBe(String(errs.length));
    expect(cells[3]).toBe(fmt(at(0.5)));
    expect(cells[4]).toBe(`${fmt(at(0.1))} … ${fmt(at(0.9))}`);
    expect(at(0.5)).toBeLessThan(0); // the GPTQ int4 rows are underestimated
  });

  test('the in-repo rows are the development set; the independent check shows its date, commit and class figures', () => {
    render(<AccuracyView />);
    expect(screen.getByRole('heading', { name: 'Development set: measured rows' })).toBeTruthy();
    const ind = screen.getByTestId('acc-independent');
    const zero3 = [...ind.querySelectorAll('tr[data-row="full-zero3"] td')].map((td) => td.textContent);
    expect(zero3).toEqual(['9', '29 %', '31 %', '-29 %']);
    expect(ind.querySelector('tr[data-row="lora-gptq"] td:nth-child(3)')!.textContent).toBe('refused');
    expect(ind.querySelector('tr[data-row="all"]')!.textContent).toContain('319');
    expect(screen.getByText(/checked 2026-11-25 on commit 759022c/)).toBeTruthy();
    expect(screen.getByTestId('acc-coverage').textContent).toMatch(/\d+(\.\d)?% of \d+ held-out rows inside/);
  });

  test('Chinese: the independent check and the development-set labels', () => {
    useApp.setState({ lang: 'zh' });
    render(<AccuracyView />);
    expect(screen.getByRole('heading', { name: '独立核查（最新结果）' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '开发集：实测数据' })).toBeTruthy();
    expect(screen.getByText('全参数微调，DeepSpeed ZeRO-3')).toBeTruthy();
    expect(screen.getByText(/于 2026-11-25 在提交 759022c 上核查/)).toBeTruthy();
  });
});
