/**
 * A small protocol-4 pickle writer for tests and benchmarks that need snapshots too large to
 * commit (10^6 trace entries). It emits the opcodes CPython's `pickle._Pickler` chooses for these
 * kinds (Lib/pickle.py save_dict / save_list / _batch_appends / _batch_setitems / save_long /
 * save_str, memo on every str, list and dict, BINGET / LONG_BINGET on repeats), without FRAME,
 * which only buffers reading.
 */
export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

const BATCH = 1000; // Lib/pickle.py _BATCHSIZE

export function pickle4(value: Plain): Uint8Array {
  let buf = new Uint8Array(1 << 16);
  let n = 0;
  const memo = new Map<unknown, number>();
  const room = (k: number) => {
    if (n + k <= buf.length) return;
    const next = new Uint8Array(Math.max(buf.length * 2, n + k));
    next.set(buf.subarray(0, n));
    buf = next;
  };
  const byte = (...bs: number[]) => {
    room(bs.length);
    for (const b of bs) buf[n++] = b;
  };
  const u32 = (v: number) => byte(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
  const get = (i: number) => (i < 256 ? byte(0x68, i) : (byte(0x6a), u32(i)));
  const remember = (key: unknown) => {
    memo.set(key, memo.size);
    byte(0x94);
  };
  const int = (v: number) => {
    if (v >= 0 && v < 256) return byte(0x4b, v);
    if (v >= 0 && v < 65536) return byte(0x4d, v & 0xff, v >> 8);
    if (v >= -(2 ** 31) && v < 2 ** 31) return (byte(0x4a), u32(v >>> 0));
    // LONG1: little-endian two's complement, as few bytes as keep the sign (pickle.encode_long)
    const out: number[] = [];
    let x = BigInt(v);
    for (;;) {
      const b = Number(x & 0xffn);
      out.push(b);
      x >>= 8n;
      if ((x === 0n && b < 0x80) || (x === -1n && b >= 0x80)) break;
    }
    byte(0x8a, out.length, ...out);
  };
  const str = (s: string) => {
    const seen = memo.get(`s:${s}`);
    if (seen !== undefined) return get(seen);
    const b = new TextEncoder().encode(s);
    if (b.length < 256) byte(0x8c, b.length);
    else {
      byte(0x58);
      u32(b.length);
    }
    room(b.length);
    buf.set(b, n);
    n += b.length;
    remember(`s:${s}`);
  };
  const save = (v: Plain): void => {
    if (v === null) return byte(0x4e);
    if (v === true) return byte(0x88);
    if (v === false) return byte(0x89);
    if (typeof v === 'number') {
      if (Number.isInteger(v)) return int(v);
      const d = new DataView(new ArrayBuffer(8));
      d.setFloat64(0, v, false);
      return byte(0x47, ...new Uint8Array(d.buffer));
    }
    if (typeof v === 'string') return str(v);
    const seen = memo.get(v);
    if (seen !== undefined) return get(seen);
    const items = Array.isArray(v) ? v : Object.entries(v);
    byte(Array.isArray(v) ? 0x5d : 0x7d);
    remember(v);
    for (let i = 0; i < items.length; i += BATCH) {
      const batch = items.slice(i, i + BATCH);
      if (batch.length > 1) byte(0x28);
      for (const item of batch) {
        if (Array.isArray(v)) save(item);
        else {
          const [k, x] = item as [string, Plain];
          str(k);
          save(x);
        }
      }
      byte(Array.isArray(v) ? (batch.length > 1 ? 0x65 : 0x61) : batch.length > 1 ? 0x75 : 0x73);
    }
  };
  byte(0x80, 4);
  save(value);
  byte(0x2e);
  return buf.slice(0, n);
}
