import { describe, expect, test } from 'vitest';
import { LAB_CORE_ZH } from '../../../src/ui/lab/lab-core-zh';
import { labTranslator, translateLabCore } from '../../../src/ui/lab/lab-i18n';
import { TRACE_PRESETS } from '../../../src/core/allocator/presets';
import { diagnoseOom } from '../../../src/core/allocator/advice';
import { decodeOom } from '../../../src/core/allocator/oom-decoder';
import { OOM_SAMPLES } from '../../../src/ui/lab/lab-samples';
import { parseMemorySummary } from '../../../src/core/allocator/summary';
import { exampleStats, exampleSummary } from '../../../src/ui/lab/summary-panel';
import { readFileSync } from 'node:fs';
import { parseAllocConf } from '../../../src/core/allocator/config';
import { readPaste } from '../../../src/core/allocator/paste';
import { parseMemoryStats } from '../../../src/core/allocator/stats-dict';
import type { LabKey } from '../../../src/ui/lab/lab-i18n';
import { adviceText } from '../../../src/ui/lab/advice-list';

const GiB = 2 ** 30;
const MiB = 2 ** 20;

describe('lab translations', () => {
  test('every preset title and description has Chinese', () => {
    for (const p of TRACE_PRESETS) {
      expect(LAB_CORE_ZH[p.title.code], p.title.code).toBeTruthy();
      expect(LAB_CORE_ZH[p.description.code], p.description.code).toBeTruthy();
    }
  });

  test('every diagnosis and advice code the core emits has Chinese, with the core params filled', () => {
    const base = { requested: 2 * GiB, free: 0, allocated: 20 * GiB, unallocated: 0, reserved: 20 * GiB, others: null, nonPyTorch: null, allowed: null, backend: 'cuda' as const };
    const cases = [
      { ...base, unallocated: 3 * GiB, reserved: 23 * GiB }, // fragmentation
      { ...base, unallocated: 3 * GiB, reserved: 23 * GiB, backend: 'hip' as const }, // fragmentation on ROCm
      { ...base, free: GiB, unallocated: 1.5 * GiB, reserved: 21.5 * GiB }, // fragmentation, card nearly full
      { ...base, others: 10 * GiB }, // other process
      { ...base, nonPyTorch: 4 * GiB }, // foreign allocations + shortage
      { ...base, free: 3 * GiB, allowed: 21 * GiB }, // memory fraction
      base, // shortage
    ];
    const seen = new Set<string>();
    const seenAdvice = new Set<string>();
    for (const c of cases) {
      const d = diagnoseOom(c);
      seen.add(d.code);
      const zh = translateLabCore('zh', d.message);
      expect(zh, d.message.code).not.toBe(d.message.text);
      expect(zh).not.toMatch(/\{\w+\}/);
      for (const a of d.advice) {
        seenAdvice.add(`${a.code}${a.variant ? `.${a.variant}` : ''}`);
        const { text, why } = adviceText(labTranslator('zh'), a);
        expect(text, a.code).not.toBe(a.text);
        expect(why, a.code).not.toBe(a.why);
        expect(text + why).not.toMatch(/\{\w+\}/);
      }
    }
    expect([...seen].sort()).toEqual(['fraction-limit', 'fragmentation', 'other-process', 'real-shortage']);
    // every action the Advice type names, with both variants, was translated above
    expect([...seenAdvice].sort()).toEqual([
      'empty-cache-before-foreign',
      'empty-cache-elsewhere',
      'expandable-segments',
      'expandable-unsupported',
      'free-other-process',
      'max-split-size',
      'max-split-size.rocm',
      'raise-memory-fraction',
      'smaller-batch',
      'smaller-batch.fragmentation',
    ]);
  });

  test('a reason that depends on the diagnosis is translated for that diagnosis', () => {
    const t = labTranslator('zh');
    // fragmentation with little room left: 2 GiB asked, 1 GiB cached + 1.5 GiB free < 2 × 2 GiB
    const frag = diagnoseOom({ requested: 2 * GiB, free: 1.5 * GiB, allocated: 20 * GiB, unallocated: GiB, reserved: 21 * GiB, others: null, nonPyTorch: null, allowed: null, backend: 'cuda' });
    const short = diagnoseOom({ requested: 2 * GiB, free: 0, allocated: 20 * GiB, unallocated: 0, reserved: 20 * GiB, others: null, nonPyTorch: null, allowed: null, backend: 'cuda' });
    const a1 = frag.advice.find((a) => a.code === 'smaller-batch')!;
    const a2 = short.advice.find((a) => a.code === 'smaller-batch')!;
    expect(a1.why).not.toBe(a2.why);
    expect(a1.variant).toBe('fragmentation');
    expect(a2.variant).toBeUndefined();
    expect(adviceText(t, a1).why).not.toBe(adviceText(t, a2).why);
    expect(adviceText(t, a1).text).toBe(adviceText(t, { ...a1, variant: undefined }).text);
  });

  test('byte params print in binary units: 2 GiB short → "2.00 GiB"', () => {
    expect(translateLabCore('zh', { code: 'advice.smaller-batch', params: { shortBytes: 2 * GiB }, text: 'x' })).toContain('2.00 GiB');
    expect(translateLabCore('zh', { code: 'request.large', params: { min: 198 * MiB, max: 200 * MiB }, text: 'x' })).toContain('198.00 MiB 到 200.00 MiB');
  });

  test('unknown codes fall back to the English text; English never looks codes up', () => {
    expect(translateLabCore('zh', { code: 'no-such-code', text: 'plain English' })).toBe('plain English');
    expect(translateLabCore('en', { code: 'oom-not-found', text: 'core text' })).toBe('core text');
  });

  test('every field, version and request code of the sample messages has Chinese', () => {
    for (const text of Object.values(OOM_SAMPLES)) {
      const d = decodeOom(text);
      expect(d.found).toBe(true);
      if (!d.found) continue;
      const codes = [d.oom.version.code, ...d.oom.fields.map((f) => f.meaning.code), d.oom.derived.request?.message.code];
      for (const c of codes) if (c) expect(LAB_CORE_ZH[c], c).toBeTruthy();
    }
  });

  test('exact bytes use the locale grouping', () => {
    expect(labTranslator('en').exact(109_051_904)).toBe('109,051,904 B');
    expect(labTranslator('zh').exact(109_051_904)).toBe('109,051,904 B');
  });

  test("the English row names of the summary table are PyTorch's own labels (9 stats × 3 pools + 2 oversize rows)", () => {
    const r = parseMemorySummary(exampleSummary());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.rows.length).toBe(29);
    for (const row of r.value.rows) {
      expect(labTranslator('en')(`sum.row.${row.pool === 'all' ? row.stat : row.pool}` as LabKey)).toBe(row.label);
    }
  });

  test('every message and advice of the memory_stats() reader, the paste sniffer and the advice fitted to release and setting has Chinese', () => {
    const t = labTranslator('zh');
    const fixture = (n: string) => readFileSync(new URL(`../../fixtures/memory-stats/${n}`, import.meta.url), 'utf8');
    const conf = (text: string) => {
      const c = parseAllocConf(text);
      if (!c.ok) throw new Error(text);
      return { text, value: c.value };
    };
    const messages = [];
    const advice = [];
    for (const text of [fixture('fragmentation-oom.txt'), fixture('retries-pprint.txt'), exampleStats()]) {
      for (const c of [null, conf('expandable_segments:True')]) {
        const r = parseMemoryStats(text, c);
        if (!r.ok) throw new Error(r.message.text);
        messages.push(r.value.diagnosis, ...r.value.notes);
        advice.push(...r.value.advice.map((a) => ({ a, prefix: 'summary-advice' as const })));
      }
    }
    const old = OOM_SAMPLES.fragmentation.replace(/GPU 0 has .*$/s, '(GPU 0; 1024.00 MiB total capacity; 500.00 MiB already allocated; 124.00 MiB free; 900.00 MiB reserved in total by PyTorch)');
    for (const [text, c] of [
      [old, null],
      [OOM_SAMPLES.fragmentation, conf('expandable_segments:True')],
      [OOM_SAMPLES.fragmentation, conf('max_split_size_mb:512')],
    ] as const) {
      const d = decodeOom(text, c);
      if (!d.found || !d.oom.diagnosis) throw new Error('not decoded');
      advice.push(...d.oom.diagnosis.advice.map((a) => ({ a, prefix: 'advice' as const })));
    }
    for (const text of ['OrderedDict()', "{'step': 1}", `{'num_ooms': ${'9'.repeat(30)}}`, "{'allocated_bytes.all.current': -1}"]) {
      const r = readPaste(text);
      if (r.kind === 'none') messages.push(r.message);
    }
    const codes = new Set([...messages.map((m) => m.code), ...advice.map(({ a }) => `${a.code}${a.variant ? `.${a.variant}` : ''}`)]);
    for (const code of [
      'stats.retries',
      'stats.note.syncs',
      'stats.note.oversize',
      'stats.note.ooms',
      'stats-empty',
      'paste-not-found',
      'stats-out-of-range',
      'stats-negative',
      'upgrade-pytorch',
      'already-set',
      'lower-peak',
      'max-split-size.only',
      'max-split-size.lower',
    ]) {
      expect(codes.has(code), code).toBe(true);
    }
    for (const m of messages) {
      const zh = translateLabCore('zh', m);
      expect(zh, m.code).not.toBe(m.text);
      expect(zh, m.code).not.toMatch(/\{\w+\}/);
    }
    for (const { a, prefix } of advice) {
      const x = adviceText(t, a, prefix);
      expect(x.text, a.code).not.toBe(a.text);
      expect(x.why, a.code).not.toBe(a.why);
      expect(x.text + x.why).not.toMatch(/\{\w+\}/);
    }
  });
});
