import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';

// The architecture rule: src/core imports nothing from React, the DOM, the store or the UI.
describe('core purity', () => {
  test('tsconfig.core.json has no DOM lib', () => {
    const cfg = JSON.parse(readFileSync('tsconfig.core.json', 'utf8'));
    expect(cfg.compilerOptions.lib).toEqual(['ES2022']);
  });
});
