import { describe, expect, test } from 'vitest';
import { makeTranslator, translateCoreWith } from '../../../src/ui/i18n/make-translator';
import { fillTemplate as fill } from '../../../src/core/template';

const en = { remove: 'Remove {name}', range: 'Must be between {min} and {max}.' } as const;
const zh = { remove: '移除 {name}', range: '必须在 {min} 到 {max} 之间。' };

describe('makeTranslator', () => {
  test('looks keys up in the language table and fills every {var}', () => {
    const kit = makeTranslator(en, zh);
    expect(kit.translator('en')('range', { min: 1, max: 8 })).toBe('Must be between 1 and 8.');
    expect(kit.translator('zh')('remove', { name: 'A100' })).toBe('移除 A100');
    expect(kit.translator('zh').lang).toBe('zh');
  });

  test('a {var} without a param stays as written; no params leaves the string alone', () => {
    expect(fill('Remove {name} from {list}', { name: 'x' })).toBe('Remove x from {list}');
    expect(fill('Remove {name}')).toBe('Remove {name}');
  });

  test('one stable function per language (safe as a hook dependency), with the view extras attached', () => {
    let built = 0;
    const kit = makeTranslator(en, zh, (t) => {
      built += 1;
      return { shout: (k: 'remove') => t(k, { name: 'X' }).toUpperCase() };
    });
    expect(kit.translator('en')).toBe(kit.translator('en'));
    expect(kit.translator('en')).not.toBe(kit.translator('zh'));
    expect(kit.translator('en').shout('remove')).toBe('REMOVE X');
    expect(built).toBe(2);
  });
});

describe('translateCoreWith', () => {
  const table = { missing: '缺少字段 {key}', short: '还差 {bytes}' };
  test('Chinese by code with {key} and params filled; English keeps the core text', () => {
    expect(translateCoreWith(table, 'zh', { code: 'missing', key: 'hidden_size', text: 'missing hidden_size' })).toBe('缺少字段 hidden_size');
    expect(translateCoreWith(table, 'en', { code: 'missing', key: 'hidden_size', text: 'missing hidden_size' })).toBe('missing hidden_size');
    expect(translateCoreWith(table, 'zh', { code: 'short', params: { bytes: 2 ** 30 } }, (_k, v) => `${Number(v) / 2 ** 30} GiB`)).toBe('还差 1 GiB');
  });

  test('an unknown code, or one named like an Object method, falls back to the English text', () => {
    expect(translateCoreWith(table, 'zh', { code: 'nope', message: 'plain English' })).toBe('plain English');
    expect(translateCoreWith(table, 'zh', { code: 'constructor', text: 'plain English' })).toBe('plain English');
    expect(translateCoreWith(table, 'zh', { code: 'bare-code' })).toBe('bare-code');
  });
});
