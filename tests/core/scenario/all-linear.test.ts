/**
 * lora-targets=all-linear: PEFT's `target_modules="all-linear"` (peft tuners/tuners_utils.py
 * `_maybe_include_all_linear_layers`: every nn.Linear / Conv1D except the output embedding), which
 * in a transformer block is every projection — the same set as 'all'.
 */
import { describe, expect, test } from 'vitest';
import { main } from '../../../src/cli/estimate';
import { parseScenario, serializeScenario } from '../../../src/core/scenario';
import { LORA_TARGETS } from '../../../src/core/scenario/schema';
import { decodeUrl } from '../../../src/state/url-codec';

describe('lora-targets=all-linear', () => {
  test('parses (any case) to every projection, like all, and is written back as all', () => {
    for (const raw of ['all-linear', 'ALL-LINEAR', ' all-linear ']) {
      const r = parseScenario({ mode: 'training', method: 'lora', 'lora-targets': raw });
      expect(r.errors).toEqual([]);
      expect(r.scenario.loraTargets).toEqual([...LORA_TARGETS]);
      expect(serializeScenario(r.scenario)['lora-targets']).toBe('all');
    }
  });

  test('mixed with names it is an invalid value that names the alias', () => {
    const r = parseScenario({ mode: 'training', method: 'lora', 'lora-targets': 'q,all-linear' });
    expect(r.errors.map((e) => e.code)).toEqual(['invalid-value']);
    expect(r.errors[0].message).toContain("'all-linear'");
  });

  test('a share link with all-linear opens the all-projections scenario', () => {
    const d = decodeUrl('?v=1&mode=training&method=qlora&weights=nf4&lora-targets=all-linear');
    expect(d.errors).toEqual([]);
    expect(d.scenario.loraTargets).toEqual([...LORA_TARGETS]);
  });

  test('the CLI flag gives the same estimate as --lora-targets all', async () => {
    const base = ['--model', 'meta-llama/Llama-2-7b-hf', '--mode', 'training', '--method', 'qlora', '--weights', 'nf4', '--json'];
    const a = await main([...base, '--lora-targets', 'all-linear']);
    const b = await main([...base, '--lora-targets', 'all']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });
});
