// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import { LANG_KEY, preferredLang, rememberLang } from '../../../src/ui/shell/lang-pref';
import { initialData, useApp } from '../../../src/state/store';
import { readUrl } from '../../../src/ui/shell/url-sync';

afterEach(() => {
  localStorage.removeItem(LANG_KEY);
  useApp.setState(initialData());
});

describe('page language without lang= in the link (issue 12 §9)', () => {
  test("the browser's languages decide: zh-CN, zh-Hans-CN and zh open in Chinese, the first one the page speaks wins", () => {
    expect(preferredLang({ languages: ['zh-CN', 'en'], language: 'zh-CN' })).toBe('zh');
    expect(preferredLang({ languages: ['zh-Hans-CN'], language: 'zh-Hans-CN' })).toBe('zh');
    expect(preferredLang({ languages: ['fr-FR', 'zh', 'en'], language: 'fr-FR' })).toBe('zh');
    expect(preferredLang({ languages: ['en-GB', 'zh-CN'], language: 'en-GB' })).toBe('en');
    expect(preferredLang({ languages: ['fr-FR'], language: 'fr-FR' })).toBe('en');
    expect(preferredLang({ languages: [], language: 'zh-TW' })).toBe('zh');
  });

  test('a language picked here is remembered and beats the browser; a link naming one beats both', () => {
    rememberLang('en');
    expect(preferredLang({ languages: ['zh-CN'], language: 'zh-CN' })).toBe('en');
    rememberLang('zh');
    readUrl('?v=1&batch=2');
    expect(useApp.getState().lang).toBe('zh');
    readUrl('?v=1&batch=2&lang=en');
    expect(useApp.getState().lang).toBe('en');
  });
});
