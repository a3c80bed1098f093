// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import ErrorBand from '../../../src/ui/accuracy/error-band';
import { useApp, initialData } from '../../../src/state/store';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { validationReport } from '../../../src/validation/report';
import type { Scenario } from '../../../src/core/types';

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
    expect(band.textContent).toBe(`± ${Number(median)} % typical (p90 ${Number(p90)} %, ${n} measured rows) Accuracy`);
    expect(band.title).toContain('inference · HF transformers · 16/32-bit weights');
    fireEvent.click(screen.getByRole('link', { name: 'Accuracy' }));
    expect(useApp.getState().view).toBe('accuracy');
  });

  test('vLLM has no published measurement here: says so instead of borrowing another runtime’s error', () => {
    useApp.setState({ lang: 'zh' });
    render(<ErrorBand s={{ ...defaultScenario(), engine: 'vllm' }} />);
    const band = screen.getByTestId('error-band');
    expect(band.textContent).toBe('尚未与公开实测数据核对 准确度');
    expect(band.title).toBe('尚无公开实测数据覆盖此类场景：推理 · vLLM · 16/32 位权重。');
  });
});
