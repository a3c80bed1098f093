import { describe, expect, test } from 'vitest';
import { LAYER_DICTS } from '../../../src/ui/layers/layers-i18n';

describe('Layer builder strings', () => {
  test('Chinese strings are written in Chinese, not copied English', () => {
    // keys whose text is only code names or symbols read the same in both languages
    const same = new Set(['table.flops']);
    for (const [key, en] of Object.entries(LAYER_DICTS.en)) {
      if (same.has(key)) continue;
      expect(LAYER_DICTS.zh[key as keyof typeof LAYER_DICTS.en], key).not.toBe(en);
      expect(LAYER_DICTS.zh[key as keyof typeof LAYER_DICTS.en], key).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
