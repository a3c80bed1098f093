/**
 * What every CLI writes, and the one sanitizer for user text in it. File names, flag values,
 * trace lines and pasted logs can hold control characters (ESC starts a terminal escape sequence,
 * CR rewrites the line, BEL rings), bidirectional overrides that reorder what is shown, or lone
 * UTF-16 surrogates (written as U+FFFD, hiding what was given). Such characters are shown escaped,
 * JSON-style (`\u001b`, `\r`), never raw; an error is always exactly one line.
 */

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Characters never written raw: C0 controls (incl. CR, LF, TAB), DEL, C1 controls (U+009B is an
 * 8-bit CSI), U+2028/U+2029 line breaks, bidi marks, embeddings, overrides and isolates, and lone surrogates.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escapeChar = (c: string): string => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const hasUnsafe = (text: string): boolean => text.search(UNSAFE) >= 0;

/** `text` on one line: every unsafe character, newlines included, escaped. */
export function oneLine(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Output text with its own line breaks kept and every other unsafe character escaped. */
export function cleanOutput(text: string): string {
  return text.replace(UNSAFE, (c) => (c === '\n' ? c : escapeChar(c)));
}

/**
 * User text for an error line, cut to `max` code points: as is (`bare`) or in single quotes when
 * it is safe, else as a JSON string literal with every unsafe character escaped.
 */
export function quoteArg(text: string, max: number, bare = false): string {
  const points = Array.from(text);
  const cut = points.length > max ? `${points.slice(0, max).join('')}…` : text;
  if (!hasUnsafe(cut)) return bare ? cut : `'${cut}'`;
  return oneLine(JSON.stringify(cut));
}

/** Exit 2 with one line on stderr. */
export const usageError = (message: string): CliResult => ({ code: 2, stdout: '', stderr: `error: ${oneLine(message)}\n` });

/** Writes a result to the process (unsafe characters escaped) and sets the exit code. */
export function emit(r: CliResult): void {
  // a reader that stops early (`| head`) closes the pipe: the rest is not wanted, not an error
  // (node: an unhandled EPIPE 'error' event on process.stdout would crash with a stack trace)
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  process.stdout.write(cleanOutput(r.stdout));
  process.stderr.write(cleanOutput(r.stderr));
  process.exitCode = r.code;
}
