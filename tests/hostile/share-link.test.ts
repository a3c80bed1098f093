/**
 * Issue #16 point 1: a share link whose layer list expands to billions of layers must come back
 * at once with the one expansion limit (src/core/layers/expand.ts), in the page and in the CLI.
 */
import { describe, expect, test } from 'vitest';
import { countExpanded, MAX_EXPANDED } from '../../src/core/layers/expand';
import { parseLayerText } from '../../src/core/layers/text';
import { problemWords } from '../../src/ui/layers/layer-core-zh';
import { readNet } from '../../src/ui/layers/net-url';
import { computeNet } from '../../src/ui/layers/use-network';
import { main as estimateCli } from '../../src/cli/estimate';

const HOSTILE = [
  'rep99999[rep99999[linear 1 1]]',
  // containers with no leaves still cost a node each when expanded
  'rep99999[rep99999[seq[]]]',
  'rep99999[rep99999[rep99999[rep99999[relu]]]]',
  `${'rep9['.repeat(30)}relu${']'.repeat(30)}`,
];

describe('share link with nested repeats', () => {
  test.each(HOSTILE)('page: %s is refused within 1 s with the shared limit', (list) => {
    const t0 = performance.now();
    const { state, ignored } = readNet({ 'net.p': 'custom', 'net.l': list, 'net.in': '1' });
    const r = computeNet(state);
    expect(performance.now() - t0).toBeLessThan(1000);
    // either the list is refused when read (then the default preset is shown and net.l is named), or it is kept and the view says why it has no figures
    if (state.preset === 'custom') {
      expect(r.estimate).toBeNull();
      expect(r.error?.message).toBe(`more than ${MAX_EXPANDED} layers after expanding repeats`);
      expect(r.tree.length).toBeGreaterThan(0);
    } else {
      expect(ignored).toContain('net.l');
    }
  });

  test('the notice reads in Chinese too', () => {
    const { state } = readNet({ 'net.p': 'custom', 'net.l': `rep${MAX_EXPANDED}[linear 1 1]`, 'net.in': '1' });
    const problem = computeNet(state).error?.problem;
    expect(problem && problemWords('zh', problem)).toBe(`展开重复后超过 ${MAX_EXPANDED} 层`);
  });

  test('a repeat just under the limit is still built in full; one more copy is refused', () => {
    // rep N[linear 1 1] expands to the repeat node + N copies = N + 1 nodes
    const ok = parseLayerText(`rep${MAX_EXPANDED - 1}[linear 1 1]`, [1]);
    expect(ok.ok && countExpanded(ok.value.layers, MAX_EXPANDED)).toBe(MAX_EXPANDED);
    const over = parseLayerText(`rep${MAX_EXPANDED}[linear 1 1]`, [1]);
    expect(over.ok && countExpanded(over.value.layers, MAX_EXPANDED)).toBeGreaterThan(MAX_EXPANDED);
  });

  test('counting stops early: 99999^4 nested copies take few operations', () => {
    const r = parseLayerText('rep99999[rep99999[rep99999[rep99999[relu]]]]', [1]);
    expect(r.ok).toBe(true);
    const t0 = performance.now();
    if (r.ok) expect(countExpanded(r.value.layers, MAX_EXPANDED)).toBeGreaterThan(MAX_EXPANDED);
    expect(performance.now() - t0).toBeLessThan(50);
  });

  // '; relu' makes the argument read as inline layer text (the CLI takes a word without a space or ';' for a preset or file)
  test.each(HOSTILE.slice(0, 2).map((l) => `${l}; relu`))('CLI: --network "%s" exits 2 with the same limit', async (list) => {
    const t0 = performance.now();
    const r = await estimateCli(['--network', list, '--input', '1']);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`more than ${MAX_EXPANDED} layers after expanding repeats`);
  });

  test('28,000 layers with one name (a 200 KB list) are analysed in linear time', () => {
    // each repeated path gets the next free #n suffix; searching from #2 every time was O(n²): 20,000 took 117 s
    const list = Array(28_000).fill('relu@x').join(';');
    const t0 = performance.now();
    const r = computeNet(readNet({ 'net.p': 'custom', 'net.l': list, 'net.in': '4' }).state);
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(r.error).toBeNull();
    expect(r.estimate!.layers.map((l) => l.path).slice(0, 3)).toEqual(['x', 'x#2', 'x#3']);
    expect(r.estimate!.layers[27_999].path).toBe('x#28000');
  });
});
