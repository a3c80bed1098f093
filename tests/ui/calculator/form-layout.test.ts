import { describe, expect, test } from 'vitest';
import { DIFFUSION_KEYS, IMAGE_ONLY_KEYS } from '../../../src/core/diffusion/keys';
import { MODES, SCENARIO_FIELDS } from '../../../src/core/scenario/schema';
import { FORM_LAYOUT, IMAGE_LAYOUT } from '../../../src/ui/calculator/scenario-form';

/** Keys the page sets outside the scenario form: the model picker, the mode tabs, the GPU picker. */
const ELSEWHERE = new Set(['model', 'params', 'mode', 'gpu']);
const imageOnly = new Set<string>(IMAGE_ONLY_KEYS);

describe('the scenario form is complete', () => {
  test('every schema key has a place in the form of some mode or of an image model, once per form', () => {
    const placed = new Set([...MODES.flatMap((m) => FORM_LAYOUT[m].flatMap((g) => g.fields)), ...IMAGE_LAYOUT.flatMap((g) => g.fields)]);
    expect(SCENARIO_FIELDS.filter((f) => !ELSEWHERE.has(f.prop) && !placed.has(f.prop as never)).map((f) => f.name)).toEqual([]);
    for (const list of [...MODES.map((m) => FORM_LAYOUT[m].flatMap((g) => g.fields)), IMAGE_LAYOUT.flatMap((g) => g.fields)]) {
      expect(new Set(list).size).toBe(list.length);
    }
  });

  test.each(MODES)('the %s form holds every key only that mode reads, and none the other mode reads alone', (mode) => {
    const list: string[] = FORM_LAYOUT[mode].flatMap((g) => g.fields);
    const only = (m: string) => SCENARIO_FIELDS.filter((f) => f.modes?.length === 1 && f.modes[0] === m && !imageOnly.has(f.prop)).map((f) => f.prop);
    expect(only(mode).filter((p) => !list.includes(p))).toEqual([]);
    expect(list.filter((p) => MODES.some((o) => o !== mode && only(o).includes(p as never)))).toEqual([]);
  });

  test('an image model shows exactly the keys its estimate reads, and a language model none of the image-only keys', () => {
    const image: string[] = IMAGE_LAYOUT.flatMap((g) => g.fields);
    expect(image.sort()).toEqual(DIFFUSION_KEYS.filter((k) => !ELSEWHERE.has(k)).sort());
    const language: string[] = MODES.flatMap((m) => FORM_LAYOUT[m].flatMap((g) => g.fields));
    expect(language.filter((k) => imageOnly.has(k))).toEqual([]);
  });
});
