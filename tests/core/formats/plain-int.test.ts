import { describe, expect, test } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { countParams } from '../../../src/core/model/params';
import { findPreset } from '../../../src/core/model/presets';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { weightBytes } from '../../../src/core/formats/weights';
import type { Scenario } from '../../../src/core/types';

const GIB = 2 ** 30;
const weightsOf = (over: Partial<Scenario>): number => {
  const r = estimate({ ...defaultScenario(), ...over });
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value.terms.find((t) => t.id === 'weights')!.bytes;
};

describe("the guides' precision table: a bare 7b count stored at exactly its bytes per parameter", () => {
  test.each([
    // fp64 8 B, fp32 4 B, fp16 2 B, int8 1 B, int4 0.5 B per parameter (IEEE 754 widths; plain integer storage)
    ['fp64', 7e9 * 8, '52.15'],
    ['fp32', 7e9 * 4, '26.08'],
    ['fp16', 7e9 * 2, '13.04'],
    ['int8', 7e9 * 1, '6.52'],
    ['int4', 7e9 * 0.5, '3.26'],
  ] as const)('%s: 7e9 × bytes = %d B = %s GiB', (weights, bytes, gib) => {
    const w = weightsOf({ model: '', params: 7e9, weights, mode: 'inference' });
    expect(w).toBe(bytes);
    expect((w / GIB).toFixed(2)).toBe(gib);
  });
});

describe('plain int8 against bitsandbytes LLM.int8 on Llama-2-7b (h 4096, L 32, f 11008, V 32000, untied)', () => {
  const arch = findPreset('meta-llama/Llama-2-7b-hf')!.arch;
  const b = countParams(arch);
  // block Linears: 32 · (4·4096² + 3·4096·11008) = 6,476,005,376; total 6,738,415,616 (HF safetensors index)
  const P_LINEAR = 32 * (4 * 4096 * 4096 + 3 * 4096 * 11008);
  const P = 6_738_415_616;
  // LLM.int8 output rows (one fp32 SCB each): q, k, v, o (4096 rows), gate, up (11008 rows), down (4096 rows)
  const ROWS = 32 * (4 * 4096 + 2 * 11008 + 4096);

  test('plain int8 stores every parameter at 1 B, plain int4 at 0.5 B, embeddings and head included', () => {
    expect([b.total, b.blockLinear]).toEqual([P, P_LINEAR]);
    expect(weightBytes(arch, b, 'int8').bytes).toBe(P);
    expect(weightBytes(arch, b, 'int4').bytes).toBe(P / 2);
    expect(weightBytes(arch, b, 'int8').parts.embedding).toBe(32000 * 4096);
  });

  test('bnb-int8 keeps embedding, head and norms in 16-bit and adds 4 B per output row (bitsandbytes Int8Params SCB)', () => {
    const bnb = weightBytes(arch, b, 'bnb-int8').bytes;
    expect(bnb).toBe(P_LINEAR + 4 * ROWS + 2 * (P - P_LINEAR));
    // the difference the primer explains: the 262,410,240 non-Linear parameters at 2 B instead of 1, plus the scales
    expect(bnb - weightBytes(arch, b, 'int8').bytes).toBe(P - P_LINEAR + 4 * ROWS);
  });

  test('the plain formats say why they differ from LLM.int8', () => {
    const d = weightBytes(arch, b, 'int4').derivation;
    expect(d.formula).toBe('P · b');
    expect(d.note?.text).toMatch(/bnb-int8/);
  });
});
