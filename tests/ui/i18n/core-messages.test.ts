/**
 * Issue #11 §5: every message code the core writes has Chinese. The codes are read from the core's
 * source (each `code: '…'` literal), so a new message without a translation fails here; the layer
 * core's problems and import notes are typed tables and checked by the compiler
 * (src/ui/layers/layer-core-zh.ts) and by tests/ui/layers/layer-core-zh.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CORE_ZH } from '../../../src/ui/i18n/core-zh';
import { LAB_CORE_ZH } from '../../../src/ui/lab/lab-core-zh';
import { LAYER_PROBLEMS_ZH } from '../../../src/ui/layers/layer-core-zh';
import { HUB_ERRORS } from '../../../src/core/hub/hub-read';

const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith('.ts') ? [join(d, f)] : []));

/** Codes only the CLI prints: the layer page states the cuDNN caveat itself and has no selective checkpointing or layer text field. */
const CLI_ONLY = new Set(['network.text', 'network.selectiveAsFull', 'network.cudnnWorkspace']);

describe('core messages in Chinese', () => {
  test('every code literal in src/core has a Chinese text', () => {
    const missing: string[] = [];
    let seen = 0;
    for (const file of walk('src/core')) {
      for (const m of readFileSync(file, 'utf8').matchAll(/code: '([\w.-]+)'/g)) {
        const code = m[1] ?? '';
        seen++;
        // the lab words advice and diagnoses under their kind (src/ui/lab/lab-core-zh.ts)
        const keys = [code, `advice.${code}`, `summary-advice.${code}`, `diagnosis.${code}`];
        if (CLI_ONLY.has(code) || keys.some((k) => k in CORE_ZH || k in LAB_CORE_ZH || k in LAYER_PROBLEMS_ZH)) continue;
        missing.push(`${code} (${file})`);
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  test('every error of the Hub reader has a Chinese text', () => {
    expect(HUB_ERRORS.filter((c) => !(`hub.${c}` in CORE_ZH))).toEqual([]);
  });
});
