/**
 * Byte sizes written by people: `4194304`, `4 MiB`, `1.5GB`, or a tensor shape and dtype such as
 * `1024x1024 float32` / `4096x4096 bf16`. Element sizes follow torch dtype itemsize
 * (torch.finfo/iinfo bits / 8); the units are those of src/core/units.ts.
 */
import { parseBytes, UNIT_NAMES } from '../units';

/** Bytes per element of torch dtypes (itemsize), by the names people write. */
const DTYPES: Record<string, number> = {
  float64: 8,
  double: 8,
  fp64: 8,
  f64: 8,
  complex64: 8,
  int64: 8,
  long: 8,
  uint64: 8,
  complex128: 16,
  float32: 4,
  float: 4,
  fp32: 4,
  f32: 4,
  tf32: 4,
  int32: 4,
  int: 4,
  uint32: 4,
  float16: 2,
  half: 2,
  fp16: 2,
  f16: 2,
  bfloat16: 2,
  bf16: 2,
  int16: 2,
  short: 2,
  uint16: 2,
  float8: 1,
  fp8: 1,
  float8_e4m3fn: 1,
  float8_e5m2: 1,
  e4m3: 1,
  e5m2: 1,
  int8: 1,
  uint8: 1,
  bool: 1,
  byte: 1,
};

/**
 * A plain decimal such as `5`, `0.5` or `.5`. Written as two alternatives that cannot both match
 * a prefix: `\d*\.?\d+` backtracks quadratically on a long digit run that ends in a non-digit.
 */
export const DECIMAL = /^(?:\d+|\d*\.\d+)$/;

/** SIZE_MAX of a 64-bit size_t: no request can be larger. */
const MAX_BYTES = 2 ** 64;

export type SizeParse = { ok: true; bytes: number } | { ok: false; message: string };

const bad = (message: string): SizeParse => ({ ok: false, message });

/** Parses `12 MiB`, `3GB`, `512`, `1024x1024 float32`, `(4096, 4096) torch.bfloat16`. */
export function parseByteSize(text: string): SizeParse {
  const t = text.trim().replace(/\s+/g, ' ');
  if (/^\d{1,15}$/.test(t)) return { ok: true, bytes: Number(t) };
  const plain = parseBytes(t);
  if (plain.ok) {
    const bytes = plain.bytes;
    if (bytes > MAX_BYTES) return bad(`'${t}' is too large (more than 2^64 bytes)`);
    if (!Number.isInteger(bytes)) return bad(`'${t}' is not a whole number of bytes`);
    return { ok: true, bytes };
  }
  if (plain.reason === 'unit') return bad(`unknown unit '${plain.unit}' (use ${UNIT_NAMES})`);
  const shaped = /^[([]?\s*(\d+(?:\s*[x×*,]\s*\d+)*)(?:\s*,)?(?:\s*[)\]])?\s+(?:torch\.)?(\w+)$/i.exec(t);
  if (shaped) {
    const [, dims = '', dtype = ''] = shaped; // neither group is optional
    const itemsize = DTYPES[dtype.toLowerCase()];
    if (itemsize === undefined) return bad(`unknown dtype '${dtype}' (e.g. float32, bf16, fp16, int8)`);
    const elements = dims.split(/[x×*,]/).reduce((p, d) => p * Number(d.trim()), 1);
    const bytes = elements * itemsize;
    if (!Number.isSafeInteger(bytes)) return bad(`'${t}' is too large`);
    return { ok: true, bytes };
  }
  return bad(`cannot read size '${t}' (expected e.g. 4194304, 4 MiB, 1.5GB or 1024x1024 float32)`);
}
