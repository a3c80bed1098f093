/**
 * What a .safetensors file holds, read from its header alone (huggingface/safetensors README
 * "Format"; safetensors/src/tensor.rs `SafeTensors::read_metadata`):
 * - bytes 0–7: N, the header's length, an unsigned little-endian 64-bit integer;
 * - bytes 8 … 8+N: a UTF-8 JSON object `{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {…}}`;
 * - then the tensors' data. The library refuses headers over 100,000,000 bytes (MAX_HEADER_SIZE).
 * The header gives every tensor's element count (product of its shape) and its bytes
 * (end − begin), so the first bytes of each file tell a model's exact size without downloading it.
 */
import type { Message } from '../types';
import { decodeUtf8 } from '../utf8';

/** safetensors' own limit on N (safetensors/src/tensor.rs MAX_HEADER_SIZE). */
export const MAX_HEADER_BYTES = 100_000_000;

/** Element counts and bytes of a set of tensors, in all and by safetensors dtype (BF16, F16, I32, …). */
export interface TensorTally {
  tensors: number;
  elements: number;
  bytes: number;
  byDtype: Record<string, { elements: number; bytes: number }>;
}

export type SafetensorsResult<T> = { ok: true; value: T } | { ok: false; error: Message };

const bad = (text: string): SafetensorsResult<never> => ({ ok: false, error: { code: 'hub.bad-header', params: { detail: text }, text: `not a safetensors header: ${text}` } });

/** N from the first 8 bytes, or an error when it is past the library's limit. */
export function headerLength(first: Uint8Array): SafetensorsResult<number> {
  if (first.length < 8) return bad('shorter than 8 bytes');
  let n = 0;
  for (let i = 7; i >= 0; i--) n = n * 256 + (first[i] ?? 0);
  if (n < 2 || n > MAX_HEADER_BYTES) return bad(`header length ${n} is outside 2 … ${MAX_HEADER_BYTES}`);
  return { ok: true, value: n };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** One header's JSON text (bytes 8 … 8+N of the file) added to `into` (a model's files share one tally). */
export function tallyHeader(bytes: Uint8Array, start: number, end: number, into: TensorTally = emptyTally()): SafetensorsResult<TensorTally> {
  if (end > bytes.length) return bad('the file ends inside its header');
  let json: unknown;
  try {
    json = JSON.parse(decodeUtf8(bytes, start, end));
  } catch {
    return bad('the header is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return bad('the header is not a JSON object');
  // checked whole before anything is added, so a bad header leaves `into` as it was
  const rows: [string, number, number][] = [];
  for (const [name, v] of Object.entries(json as Record<string, unknown>)) {
    if (name === '__metadata__') continue;
    const info = v as { dtype?: unknown; shape?: unknown; data_offsets?: unknown } | null;
    const shape = info?.shape;
    const offsets = info?.data_offsets;
    if (typeof info?.dtype !== 'string' || !/^[A-Z0-9_]{1,16}$/.test(info.dtype)) return bad(`tensor ${name.slice(0, 80)}: no dtype`);
    if (!Array.isArray(shape) || shape.length > 16 || !shape.every(isCount)) return bad(`tensor ${name.slice(0, 80)}: bad shape`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !isCount(offsets[0]) || !isCount(offsets[1]) || offsets[1] < offsets[0]) return bad(`tensor ${name.slice(0, 80)}: bad data_offsets`);
    const elements = shape.reduce((a: number, b: number) => a * b, 1);
    if (!Number.isSafeInteger(elements)) return bad(`tensor ${name.slice(0, 80)}: too many elements`);
    rows.push([info.dtype, elements, offsets[1] - offsets[0]]);
  }
  for (const [dtype, elements, bytes] of rows) add(into, dtype, elements, bytes);
  return { ok: true, value: into };
}

export const emptyTally = (): TensorTally => ({ tensors: 0, elements: 0, bytes: 0, byDtype: {} });

function add(t: TensorTally, dtype: string, elements: number, bytes: number): void {
  t.tensors++;
  t.elements += elements;
  t.bytes += bytes;
  const d = (t.byDtype[dtype] ??= { elements: 0, bytes: 0 });
  d.elements += elements;
  d.bytes += bytes;
}
