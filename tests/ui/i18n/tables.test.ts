import { describe, expect, test } from 'vitest';
import { en } from '../../../src/ui/i18n/en';
import { zh } from '../../../src/ui/i18n/zh';
import { labEn } from '../../../src/ui/lab/lab-en';
import { labZh } from '../../../src/ui/lab/lab-zh';
import { ACCURACY_DICTS } from '../../../src/ui/accuracy/accuracy-i18n';
import { LAYER_DICTS } from '../../../src/ui/layers/layers-i18n';

type Table = Readonly<Record<string, string>>;

/** Every view's English and Chinese tables. */
const VIEWS: Record<string, { en: Table; zh: Table }> = {
  page: { en, zh },
  lab: { en: labEn, zh: labZh },
  accuracy: ACCURACY_DICTS,
  layers: LAYER_DICTS,
};

const placeholders = (s: string) => new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

/** What is wrong with a pair of tables: keys on one side only, `{var}`s missing or added in Chinese. */
function tableProblems(enT: Table, zhT: Table): string[] {
  const problems: string[] = [];
  for (const k of Object.keys(enT)) {
    if (!Object.hasOwn(zhT, k) || !zhT[k]) {
      problems.push(`${k}: no Chinese`);
      continue;
    }
    const want = placeholders(enT[k]);
    const got = placeholders(zhT[k]);
    for (const p of want) if (!got.has(p)) problems.push(`${k}: Chinese lacks {${p}}`);
    for (const p of got) if (!want.has(p)) problems.push(`${k}: Chinese adds {${p}}`);
  }
  for (const k of Object.keys(zhT)) if (!Object.hasOwn(enT, k)) problems.push(`${k}: no English`);
  return problems;
}

describe('translation tables of every view', () => {
  test.each(Object.keys(VIEWS))('%s: Chinese has exactly the English keys and the same {var} placeholders', (view) => {
    const { en: enT, zh: zhT } = VIEWS[view];
    expect(Object.keys(enT).length).toBeGreaterThan(0);
    expect(tableProblems(enT, zhT)).toEqual([]);
  });

  test('the check names a missing key, an extra key, a dropped and an invented placeholder', () => {
    const enT = { a: 'Must be between {min} and {max}.', b: 'Remove {name}', c: 'Dismiss' };
    const zhT = { a: '必须在 {min} 到 {mx} 之间。', c: '关闭', d: '多余' };
    expect(tableProblems(enT, zhT)).toEqual(['a: Chinese lacks {max}', 'a: Chinese adds {mx}', 'b: no Chinese', 'd: no English']);
  });
});
