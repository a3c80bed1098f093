import { describe, expect, test } from 'vitest';
import { ACCURACY_DICTS, accuracyT } from '../../../src/ui/accuracy/accuracy-i18n';
import { validationReport } from '../../../src/validation/report';

type Key = keyof typeof ACCURACY_DICTS.en;

describe('Accuracy strings', () => {
  test('Chinese strings are written in Chinese, except proper names kept as spelled', () => {
    const same = new Set(['what.device', 'engine.transformers', 'engine.vllm', 'engine.llama.cpp', 'method.lora', 'method.qlora']);
    for (const key of Object.keys(ACCURACY_DICTS.en)) {
      if (same.has(key)) continue;
      expect(ACCURACY_DICTS.zh[key as Key], key).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  test('every skip reason in the shipped report has a Chinese translation (not the English fallback)', () => {
    const zh = accuracyT('zh');
    const skipped = validationReport().skipped;
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(zh.reason(s.reason), s.row.id).toMatch(/[\u4e00-\u9fff]/);
  });

  test('kind keys are translated part by part; unknown parts pass through', () => {
    expect(accuracyT('en').kind('training/full/4bit')).toBe('training · full fine-tuning · 4-bit weights');
    expect(accuracyT('zh').kind('inference/llama.cpp/lowbit')).toBe('推理 · llama.cpp · 其他 k-quant 权重');
    expect(accuracyT('en').kind('inference/tgi')).toBe('inference · tgi');
  });
});
