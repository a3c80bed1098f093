/**
 * Our own H200 `generate()` runs (fixtures/measured-generate.json, tools/measure/measure_generate.py)
 * mapped to scenarios and scored: bf16 weights and KV cache, SDPA, batch 1, greedy decoding of 64
 * tokens after a 1,024 / 8,192 / 32,768-token prompt, transformers 5.17. Pure: no DOM, no Node APIs.
 *
 * The runs' peaks include building the model from its config: `from_config` makes a tied model's
 * LM head as a V×h weight of its own before tying it to the embedding, then frees it (seen in our
 * traces: measure_trainer.py --trace, the LM head's Linear allocated at init and freed). A checkpoint
 * load does not, so the estimate leaves it out, and the mapping compares against
 * max(estimate, weights + that V×h·2 transient). Where the replay decides reserved memory
 * (timeline/applies.ts) it is replayed with that head allocated after the weights and freed
 * (`loadTransient`), as the runs did: its freed segment stays cached and later tensors are cut from it.
 */
import fixture from './fixtures/measured-generate.json';
import { defaultScenario } from '../core/scenario/schema';
import { estimateWithReplay } from '../core/timeline';
import { findPreset } from '../core/model/presets';
import type { Attn, Scenario } from '../core/types';
import { signedErrPct } from './score';

export interface GenerateRow {
  id: string;
  settings: { preset: string; prompt: number; gen: number; batch: number; dtype: string; attn: string };
  measured: { allocated: number; reserved: number; weights_allocated: number };
}

export const GENERATE_ROWS = fixture.rows as unknown as GenerateRow[];
export const GENERATE_ENV: Readonly<Record<string, string | number>> = fixture.env;

/** The scenario a row ran. */
export function generateScenario(row: GenerateRow): Scenario {
  const st = row.settings;
  const half = st.dtype === 'fp16' ? 'fp16' : 'bf16';
  return { ...defaultScenario(), model: st.preset, mode: 'inference', engine: 'transformers', weights: half, kv: half, attn: st.attn as Attn, batch: st.batch, prompt: st.prompt, gen: st.gen };
}

export interface GenerateScore {
  id: string;
  row: GenerateRow;
  predictedAllocated: number;
  predictedReserved: number;
  /** 100·(predicted − measured)/measured */
  allocatedErrPct: number;
  reservedErrPct: number;
}

/** Every row scored (rows the estimate refuses are left out). */
export function scoreGenerateRows(rows: readonly GenerateRow[] = GENERATE_ROWS): GenerateScore[] {
  const out: GenerateScore[] = [];
  for (const row of rows) {
    const arch = findPreset(row.settings.preset)?.arch;
    const e = estimateWithReplay(generateScenario(row), { loadTransient: arch?.tiedEmbeddings ? arch.vocab * arch.hidden * 2 : 0 });
    if (!e.ok || !arch) continue;
    const weights = e.value.terms.find((t) => t.id === 'weights')?.bytes ?? 0;
    const load = weights + (arch.tiedEmbeddings ? arch.vocab * arch.hidden * 2 : 0);
    const allocated = Math.max(e.value.allocatedBytes, load);
    const reserved = Math.max(e.value.reservedBytes, load);
    const m = row.measured;
    out.push({
      id: row.id,
      row,
      predictedAllocated: allocated,
      predictedReserved: reserved,
      allocatedErrPct: signedErrPct(allocated, m.allocated),
      reservedErrPct: signedErrPct(reserved, m.reserved),
    });
  }
  return out;
}
