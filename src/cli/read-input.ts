/**
 * The one way every CLI reads user input (a file path, `-` or a pipe on stdin): to its end,
 * within a byte cap, refusing what is not a file or a pipe, with a one-line reason.
 *
 * - stdin: never touches `process.stdin` (creating that stream puts a pipe into non-blocking
 *   mode, after which a read before the writer has written fails with EAGAIN and was taken for
 *   end of input: ~64 KB of a slowly piped log arrived, the rest was lost). fd 0 is read with
 *   blocking readSync; if it is non-blocking anyway, EAGAIN waits a moment and reads again.
 * - a path is stat'ed first: a directory or a device (`/dev/zero`, `/dev/urandom`) is refused,
 *   a regular file over the cap is refused by its size before a byte is read, and a pipe
 *   (`<(cmd)`) is read in chunks up to the cap.
 * - a UTF-8 byte-order mark is dropped (Windows editors write one; JSON.parse rejects it).
 */
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { isatty } from 'node:tty';
import { quoteArg } from './output';
import { formatIn, MiB } from '../core/units';

/** Largest input read (bytes): a 100k-entry memory history is about 10 MB of JSON, logs are smaller. */
export const MAX_INPUT_BYTES = 64 * MiB;

export type Read = { ok: true; text: string } | { ok: false; error: string };

const CHUNK = 1 << 16;
const pause = new Int32Array(new SharedArrayBuffer(4));

const mib = (n: number) => formatIn(n, 'MiB', n % MiB === 0 ? 0 : 1);

/** Every byte of an open fd up to `cap`; false when there is more than `cap`. */
function readFd(fd: number, cap: number): Buffer | false {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // a non-blocking pipe with nothing written yet: wait 5 ms and read again
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 5);
        continue;
      }
      if (code === 'EOF') break; // Windows: end of a pipe
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > cap) return false;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks, total);
}

/** Text of bytes, UTF-8 with a leading byte-order mark dropped. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes); // TextDecoder drops the BOM (ignoreBOM: false)
}

const kindOf = (s: Stats): string =>
  s.isDirectory() ? 'a directory' : s.isCharacterDevice() ? 'a character device' : s.isBlockDevice() ? 'a block device' : s.isSocket() ? 'a socket' : 'not a regular file';

/** All of stdin; '' when it is a terminal (nothing was piped). */
export function readStdin(cap = MAX_INPUT_BYTES): Read {
  if (isatty(0)) return { ok: true, text: '' };
  try {
    const bytes = readFd(0, cap);
    return bytes === false ? { ok: false, error: `stdin is larger than ${mib(cap)}; give a smaller part of the log` } : { ok: true, text: decodeText(bytes) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // no stdin at all (closed, or a directory given with <)
    if (code === 'EBADF' || code === 'EISDIR') return { ok: true, text: '' };
    return { ok: false, error: `cannot read stdin: ${code ?? (e as Error).message}` };
  }
}

/** Bytes of the file at `path`: a regular file or a pipe, at most `cap` bytes. */
export function readFileBytes(path: string, cap: number): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const name = quoteArg(path, 200, true);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return { ok: false, error: `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() && !st.isFIFO()) return { ok: false, error: `cannot read ${name}: ${kindOf(st)}, not a file` };
    if (st.isFile() && st.size > cap) return { ok: false, error: `${name} is ${mib(st.size)}, larger than the ${mib(cap)} limit` };
    const bytes = readFd(fd, cap);
    return bytes === false ? { ok: false, error: `${name} is larger than the ${mib(cap)} limit` } : { ok: true, bytes };
  } catch (e) {
    return { ok: false, error: `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

/** Text of the file at `path`: a regular file or a pipe, at most `cap` bytes. */
export function readTextFile(path: string, cap = MAX_INPUT_BYTES): Read {
  const r = readFileBytes(path, cap);
  return r.ok ? { ok: true, text: decodeText(r.bytes) } : r;
}
