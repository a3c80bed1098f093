// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import ErrorBand, { BandRange } from '../../../src/ui/accuracy/error-band';
import { useApp, initialData } from '../../../src/state/store';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { validationReport } from '../../../src/validation/report';
import type { Scenario } from '../../../src/core/types';
import { VARIED_RESERVED_BAND } from '../../../src/validation/varied-band';

afterEach(() => {
  cleanup();
  useApp.setState(initialData());
});

/** |error| of the scored rows run on HF transformers for inference with 16/32-bit float weights, sorted. */
function floatInferenceErrors(): number[] {
  return validationReport()
    .scored.filter((r) => r.mapped.scenario.mode === 'inference' && r.mapped.scenario.engine === 'transformers' && ['fp32', 'fp16', 'bf16'].includes(r.mapped.scenario.weights))
    .map((r) => Math.abs(r.errPct))
    .sort((a, b) => a - b);
}

describe('calculator error band', () => {
  test('bf16 inference on transformers: median and p90 of the measured rows of that kind, and a link to Accuracy', () => {
    const errs = floatInferenceErrors();
    const n = errs.length;
    // nearest rank: element ceil(q·n) (1-based)
    const median = errs[Math.ceil(0.5 * n) - 1].toFixed(1);
    const p90 = errs[Math.ceil(0.9 * n) - 1].toFixed(1);
    const s: Scenario = { ...defaultScenario(), mode: 'inference', engine: 'transformers', weights: 'bf16' };
    render(<ErrorBand s={s} />);
    const band = screen.getByTestId('error-band');
    // the old "± median % typical (p90 …, n rows)" line is gone (it quoted the tuned-to development rows as
    // the error to expect); the same three figures now sit in the band's tooltip
    expect(band.title).toContain(`Development rows of this kind (inference · HF transformers · 16/32-bit weights): ${n}, median |error| ${Number(median)} %, p90 ${Number(p90)} %`);
    // the line states the band: the independent check's class "inference, transformers, current model families"
    // (median 4 %, p90 18 %, bias +2 %: two-sided) gives p80 ≈ 4 + ¾ · (18 − 4) = 14.5 %, wider than the development rows' band
    const p80 = 4 + 0.75 * (18 - 4);
    expect(band.textContent).toBe(`80 % bands: from the measured error of this kind of scenario, -${p80} to +${p80} %. Accuracy`);
    expect(band.dataset.basis).toBe('validated');
    fireEvent.click(screen.getByRole('link', { name: 'Accuracy' }));
    expect(useApp.getState().view).toBe('accuracy');
  });

  test('vLLM has no published measurement here: says so instead of borrowing another runtime’s error', () => {
    useApp.setState({ lang: 'zh' });
    render(<ErrorBand s={{ ...defaultScenario(), engine: 'vllm' }} />);
    const band = screen.getByTestId('error-band');
    // "not yet checked" now reads "not validated" with the band it gets: the independent check has no vLLM class, so its
    // spread over all rows, median 11.7 %, p90 58.8 %: p80 ≈ 11.7 + ¾ · (58.8 − 11.7) = 47.025 → "47" at one decimal
    expect(band.textContent).toBe('未经验证：开发集中没有此类场景的数据；80 % 区间采用独立核查发现的更大误差，-47 至 +47 %。 准确度');
    expect(band.title.startsWith('尚无公开实测数据覆盖此类场景：推理 · vLLM · 16/32 位权重。')).toBe(true);
    expect(band.dataset.basis).toBe('not-validated');
  });

  test('each total gets "(80 %: lo–hi)": a LoRA run, which we underestimate elsewhere, gets a band reaching above the estimate', () => {
    // LoRA: no development-set band (2 rows); the independent check's LoRA classes: variable-length data (median 32, p90 56,
    // bias −32: one-sided) p80 = 32 + ¾ · 24 = 50 → [−50 %, 0]; the 2 torchtune LoRA rows err +1.1 % and +4.9 %.
    // A 10 GiB total then lies in [10 / 1.049, 10 / 0.5] = [9.53, 20.0] GiB (two decimals below 10, one from 10)
    const lora = validationReport().scored.filter((r) => r.mapped.scenario.mode === 'training' && r.mapped.scenario.method === 'lora');
    const hiErr = Math.max(...lora.map((r) => r.errPct));
    const s: Scenario = { ...defaultScenario(), mode: 'training', method: 'lora' };
    render(<BandRange s={s} bytes={10 * 2 ** 30} testId="b" />);
    expect(screen.getByTestId('b').textContent).toBe(`(80 %: ${(10 / (1 + hiErr / 100)).toFixed(2)}–${(10 / 0.5).toFixed(1)})`);
    cleanup();
    render(<ErrorBand s={s} />);
    expect(screen.getByTestId('error-band').dataset.basis).toBe('not-validated');
    expect(screen.getByTestId('error-band').title).toContain('2 development rows of this kind, too few for a band');
  });

  test('a guessed shape (bare parameter count) says it has no precise band, in Chinese too', () => {
    useApp.setState({ lang: 'zh' });
    render(<ErrorBand s={{ ...defaultScenario(), model: '', params: 7e9 }} />);
    const band = screen.getByTestId('error-band');
    expect(band.dataset.basis).toBe('guessed-shape');
    expect(band.textContent.startsWith('模型结构由参数量推测：没有精确区间')).toBe(true);
  });

  test('varied lengths: the tooltip says the band also spans the drawn orders and how often that spread held our runs (varied-band.ts); fixed lengths and expandable segments do not', () => {
    const s: Scenario = { ...defaultScenario(), mode: 'training', method: 'lora', lengths: 'varied' };
    const { rerender } = render(<ErrorBand s={s} />);
    const { orders, ordersWithin, rows, within, above } = VARIED_RESERVED_BAND;
    expect(screen.getByTestId('error-band').title).toContain(
      `the band also spans the drawn orders’ 10th–90th percentile, which held ${ordersWithin} of ${orders} orders of our H200 runs (${within} of ${rows} runs; ${above} above, ${rows - within - above} below)`,
    );
    for (const other of [
      { ...s, lengths: 'fixed' as const },
      { ...s, allocConf: 'expandable' as const },
    ]) {
      rerender(<ErrorBand s={other} />);
      expect(screen.getByTestId('error-band').title).not.toContain('drawn orders');
    }
  });
});
