import { describe, expect, test } from 'vitest';
import { CONFLICTS } from '../../src/core/scenario/conflicts';
import { SCENARIO_FIELDS } from '../../src/core/scenario/schema';
import { defaultScenario } from '../../src/core/scenario';
import { CORE_ZH } from '../../src/ui/i18n/core-zh';
import { en } from '../../src/ui/i18n/en';
import { zh } from '../../src/ui/i18n/zh';
import { optionReason } from '../../src/ui/calculator/compat';

const EN: Record<string, string> = en;
const ZH: Record<string, string> = zh;
/** Names a user never sees in the form: external keys with a dash, camelCase props, key=value. */
const INTERNAL = [...SCENARIO_FIELDS.filter((f) => f.name.includes('-')).map((f) => f.name), ...SCENARIO_FIELDS.filter((f) => /[A-Z]/.test(f.prop)).map((f) => f.prop)];

describe('every combination rule says why in words, in both languages', () => {
  test.each(CONFLICTS.map((r) => r.id))('%s has a reason in English and Chinese, and a Chinese error text', (id) => {
    expect(EN[`why.${id}`]).toBeTruthy();
    expect(ZH[`why.${id}`]).toBeTruthy();
    expect(CORE_ZH[id]).toBeTruthy();
    for (const text of [EN[`why.${id}`], ZH[`why.${id}`]]) {
      expect(text).not.toMatch(/\w=\w/);
      for (const name of INTERNAL) expect(text).not.toContain(name);
    }
  });

  test('rule ids are unique', () => {
    expect(new Set(CONFLICTS.map((r) => r.id)).size).toBe(CONFLICTS.length);
  });

  test("the form's disabled option carries the rule's own reason", () => {
    const s = { ...defaultScenario(), mode: 'training' as const, method: 'qlora' as const, weights: 'nf4' as const };
    expect(optionReason(s, 'weights', 'bf16')?.key).toBe('why.qlora-needs-quantized');
    expect(optionReason(s, 'weights', 'gptq-int4')).toBeUndefined();
    // vLLM stores fp8 but not llama.cpp's q8_0 blocks (vLLM kv_cache_dtype)
    const v = { ...defaultScenario(), engine: 'vllm' as const };
    expect(optionReason(v, 'kv', 'q8_0')?.key).toBe('why.kv-engine');
    expect(optionReason(v, 'kv', 'fp8')).toBeUndefined();
    // PyTorch FSDP ShardingStrategy has SHARD_GRAD_OP (ZeRO-2) and FULL_SHARD (ZeRO-3), nothing for ZeRO-1
    const f = { ...defaultScenario(), mode: 'training' as const, zero: 1 as const };
    expect(optionReason(f, 'zeroImpl', 'fsdp')?.key).toBe('why.fsdp-no-zero1');
  });
});
