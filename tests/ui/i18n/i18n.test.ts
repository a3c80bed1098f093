import { describe, expect, test } from 'vitest';
import { FIELD_LABEL_EN } from '../../../src/ui/i18n/scenario-labels';
import { ARCH_LABEL_EN } from '../../../src/ui/i18n/arch-labels';
import { ARCH_LABEL_ZH, FIELD_LABEL_ZH, HELP_ZH } from '../../../src/ui/i18n/scenario-labels-zh';
import { SCENARIO_FIELDS } from '../../../src/core/scenario/schema';
import { ARCH_FIELDS } from '../../../src/core/scenario/arch-fields';
import { formatBytes, formatCount } from '../../../src/ui/i18n/format';
import { translate } from '../../../src/ui/i18n';

describe('translations', () => {
  test('every schema key has a label in both languages and Chinese help', () => {
    for (const f of SCENARIO_FIELDS) {
      if (f.prop === 'arch') continue;
      expect(FIELD_LABEL_EN[f.prop], f.prop).toBeTruthy();
      expect(FIELD_LABEL_ZH[f.prop], f.prop).toBeTruthy();
      expect(HELP_ZH[f.prop], f.prop).toBeTruthy();
    }
    for (const f of ARCH_FIELDS) {
      expect(ARCH_LABEL_EN[f.prop], f.prop).toBeTruthy();
      expect(ARCH_LABEL_ZH[f.prop], f.prop).toBeTruthy();
    }
  });

  test('parameters are filled in', () => {
    expect(translate('en', 'field.outOfRange', { min: 1, max: 8 })).toBe('Must be between 1 and 8.');
    expect(translate('zh', 'fit.short', { bytes: '2 GiB' })).toBe('还差 2 GiB');
  });
});

describe('number formatting', () => {
  test('GiB and GB differ by 2^30 / 10^9', () => {
    // 80 GiB (A100 80GB as nvidia-smi reports it: 81920 MiB) is 85.9 GB
    expect(formatBytes(81920 * 2 ** 20, 'GiB', 'en')).toBe('80.0 GiB');
    expect(formatBytes(81920 * 2 ** 20, 'GB', 'en')).toBe('85.9 GB');
    expect(formatBytes(12.5 * 2 ** 30, 'GiB', 'en')).toBe('12.5 GiB');
    expect(formatBytes(7.25 * 2 ** 30, 'GiB', 'en')).toBe('7.25 GiB');
  });

  test('counts read naturally in each language', () => {
    // Llama-2-7B: 6,738,415,616 parameters (Touvron et al. 2023 / HF model card)
    expect(formatCount(6_738_415_616, 'en')).toBe('6.74B');
    expect(formatCount(6_738_415_616, 'zh')).toBe('67.38亿');
    expect(formatBytes(1234.5 * 2 ** 30, 'GiB', 'zh')).toBe('1,235 GiB');
  });
});
