import { describe, expect, test } from 'vitest';
import { bandFrom, expectedErrorBand, kindKeys, MIN_ROWS, weightFamily } from '../../src/validation/error-band';
import { validationReport } from '../../src/validation/report';
import { defaultScenario } from '../../src/core/scenario/schema';
import type { Scenario } from '../../src/core/types';
import type { ScoredRow } from '../../src/validation/score';

const nearest = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1];
const scenario = (p: Partial<Scenario>): Scenario => ({ ...defaultScenario(), ...p });

describe('expected error band', () => {
  test('Qwen2.5 bf16 inference: the report figures of its group (inference on HF transformers, 16/32-bit weights)', () => {
    const qwen = validationReport().scored.find((s) => s.row.model === 'Qwen2.5-7B-Instruct' && s.row.precision === 'bf16')!;
    const group = validationReport().scored.filter(
      (s) => s.mapped.scenario.mode === 'inference' && s.mapped.scenario.engine === 'transformers' && ['fp32', 'fp16', 'bf16'].includes(s.mapped.scenario.weights),
    );
    const abs = group.map((s) => Math.abs(s.errPct));
    const band = expectedErrorBand(qwen.mapped.scenario)!;
    expect(band).toEqual({ n: group.length, medianPct: nearest(abs, 0.5), p90Pct: nearest(abs, 0.9), basis: 'inference/transformers/float' });
    // the group holds the 28 bf16 rows of the Qwen2.5 speed benchmark (7 sizes × 4 lengths)
    expect(group.filter((s) => s.mapped.source === 'Qwen2.5 speed benchmark').length).toBe(28);
  });

  test('a weight family with no rows falls back to the mode and engine; no engine rows means no band', () => {
    const q5 = expectedErrorBand(scenario({ weights: 'gguf-q5_k_m' }))!;
    const coarse = validationReport().scored.filter((s) => s.mapped.scenario.mode === 'inference' && s.mapped.scenario.engine === 'transformers');
    expect(q5.basis).toBe('inference/transformers');
    expect(q5.n).toBe(coarse.length);
    expect(expectedErrorBand(scenario({ engine: 'vllm' }))).toBeNull();
    expect(expectedErrorBand(scenario({ mode: 'training', method: 'lora' }))).toBeNull();
  });

  test(`fewer than ${MIN_ROWS} rows of a kind give no band of that kind`, () => {
    const fake = (weights: Scenario['weights'], errPct: number) => ({ errPct, mapped: { scenario: scenario({ weights }) } }) as unknown as ScoredRow;
    const rows = [fake('nf4', 1), fake('nf4', -2), fake('bf16', 4), fake('bf16', 8), fake('bf16', -6)];
    // nf4: 2 rows < MIN_ROWS → coarse inference/transformers over all 5: |e| [1,2,4,6,8]
    expect(bandFrom(rows, scenario({ weights: 'awq-int4' }))).toEqual({ n: 5, medianPct: 4, p90Pct: 8, basis: 'inference/transformers' });
    expect(bandFrom(rows, scenario({ weights: 'fp16' }))).toEqual({ n: 3, medianPct: 6, p90Pct: 8, basis: 'inference/transformers/float' });
    expect(bandFrom(rows.slice(0, 2), scenario({ weights: 'bf16' }))).toBeNull();
  });

  test('kinds: training is keyed by method, inference by engine', () => {
    expect(kindKeys(scenario({ mode: 'training', method: 'qlora', weights: 'nf4' }))).toEqual(['training/qlora', 'training/qlora/4bit']);
    expect(kindKeys(scenario({ engine: 'llama.cpp', weights: 'gguf-q8_0' }))).toEqual(['inference/llama.cpp', 'inference/llama.cpp/8bit']);
    expect(weightFamily('gguf-q2_k')).toBe('lowbit');
  });
});
