/**
 * Our H200 runs of the 2023 chat models that ship their own modeling file (Qwen-7B, ChatGLM3-6B,
 * Baichuan2-13B-Chat, built from their Hub code with random weights; generate and Trainer LoRA) and of transformers-native
 * generate() scenarios the other runs lack (eager attention in bf16 and fp16, Phi-3-mini, Falcon-7B):
 * fixtures/measured-remote.json, tools/measure/measure_remote.py. Pure: no DOM, no Node APIs.
 *
 * Remote rows decode greedily as generate does for these files (a prompt pass, then one token at a
 * time with the files' own cache tuples); their peaks are taken after the model is built (the
 * allocator's statistics reset, the cache emptied), so the estimate compares as it is. Native rows
 * are generate() runs measured like measured-generate.json's, and mapped the same way.
 */
import fixture from './fixtures/measured-remote.json';
import { defaultScenario } from '../core/scenario/schema';
import { estimateWithReplay } from '../core/timeline';
import type { Scenario } from '../core/types';
import { signedErrPct } from './score';
import { scoreGenerateRows, type GenerateRow, type GenerateScore } from './measured-generate';
import { gpuScenario, withConfig, type GpuRow } from './measured-gpu';

interface Peak {
  allocated: number;
  reserved: number;
}

export interface RemoteRow {
  id: string;
  settings: { model: string; prompt: number; gen: number; batch: number; dtype: string; config: Record<string, unknown>; hf_config?: Record<string, unknown> };
  measured: Peak & { prefill: Peak; decode: Peak; params_bytes: number; past_after_prefill: number; after_prefill: number; after_build: number };
}

type Row = (typeof fixture.rows)[number];
const kind =
  (c: string) =>
  (r: Row): boolean =>
    r.id.startsWith(c);
export const REMOTE_ROWS = fixture.rows.filter(kind('r')) as unknown as RemoteRow[];
/** generate() rows of transformers-native models, scored as measured-generate.ts scores its own */
export const NATIVE_ROWS = fixture.rows.filter(kind('n')) as unknown as GenerateRow[];
/** Trainer LoRA runs of the remote models (measure_trainer.py's rows, the model built from its file), scored as measured-gpu.ts scores its own */
export type TrainRow = GpuRow;
export const TRAIN_ROWS = fixture.rows.filter(kind('l')) as unknown as TrainRow[];
export const REMOTE_ENV: Readonly<Record<string, string>> = fixture.env;

/** `base` with a row's pasted config.json as its model, where it has one (null: the config is refused). */

/** The scenario a remote row ran: its preset, or its config.json pasted; `use_cache_quantization` is kv=int8. */
export function remoteScenario(row: RemoteRow): Scenario | null {
  const st = row.settings;
  const kv = st.config.use_cache_quantization === true ? 'int8' : 'bf16';
  return withConfig(
    { ...defaultScenario(), mode: 'inference', engine: 'transformers', weights: 'bf16', kv, attn: 'sdpa', batch: st.batch, prompt: st.prompt, gen: st.gen, model: st.model },
    st.hf_config,
  );
}

export interface RowScore<R> {
  id: string;
  row: R;
  predictedAllocated: number;
  predictedReserved: number;
  /** 100·(predicted − measured)/measured */
  allocatedErrPct: number;
  reservedErrPct: number;
}

/** Rows scored against estimateWithReplay of their scenario (rows the estimate refuses are left out). */
function scoreRows<R extends { id: string; measured: { allocated: number; reserved: number } }>(rows: readonly R[], scenarioOf: (row: R) => Scenario | null): RowScore<R>[] {
  const out: RowScore<R>[] = [];
  for (const row of rows) {
    const s = scenarioOf(row);
    const e = s ? estimateWithReplay(s) : null;
    if (!e?.ok) continue;
    const m = row.measured;
    out.push({
      id: row.id,
      row,
      predictedAllocated: e.value.allocatedBytes,
      predictedReserved: e.value.reservedBytes,
      allocatedErrPct: signedErrPct(e.value.allocatedBytes, m.allocated),
      reservedErrPct: signedErrPct(e.value.reservedBytes, m.reserved),
    });
  }
  return out;
}

/** Every remote generate row scored. */
export function scoreRemoteRows(rows: readonly RemoteRow[] = REMOTE_ROWS): RowScore<RemoteRow>[] {
  return scoreRows(rows, remoteScenario);
}

/** The native rows, scored by measured-generate.ts. */
export function scoreNativeRows(): GenerateScore[] {
  return scoreGenerateRows(NATIVE_ROWS);
}

/** The Trainer rows: measured-gpu.ts's mapping, the pasted config where the row has one. */
export function scoreTrainRows(): RowScore<TrainRow>[] {
  return scoreRows(TRAIN_ROWS, gpuScenario);
}
