/**
 * Shared plumbing of the `oom` and `allocator` CLIs: flag splitting, reading a file or stdin,
 * aligned text tables, and the process wrapper (exit codes: 0 ok, 1 simulated OOM, 2 bad input).
 */
import { pathToFileURL } from 'node:url';
import { emit, quoteArg, usageError, type CliResult } from './output';
import { readStdin, readTextFile, type Read } from './read-input';

export type Flags = { ok: true; flags: Map<string, string | true>; positional: string[] } | { ok: false; error: string };

/** Splits argv into `--flag`, `--key value` / `--key=value` and positional arguments. */
export function splitFlags(argv: readonly string[], bools: readonly string[], values: readonly string[]): Flags {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h') flags.set('help', true);
    else if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (flags.has(name)) return { ok: false, error: `--${name} is given twice` };
      if (bools.includes(name)) {
        if (eq >= 0) return { ok: false, error: `--${name} takes no value` };
        flags.set(name, true);
      } else if (values.includes(name)) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) return { ok: false, error: `--${name} needs a value` };
        flags.set(name, v);
      } else {
        return { ok: false, error: `unknown flag ${quoteArg(`--${name}`, 42, true)}; see --help` };
      }
    } else positional.push(a);
  }
  return { ok: true, flags, positional };
}

/** Text of `path` ('-' or null: stdin), read by src/cli/read-input.ts (capped, files and pipes only). */
export function readInput(path: string | null, stdin: () => string): Read {
  if (path === null || path === '-') {
    const text = stdin();
    return text.trim() ? { ok: true, text } : { ok: false, error: 'no input: give a file or pipe text into stdin' };
  }
  return readTextFile(path);
}

/** All of stdin, or '' when it is a terminal; a pipe past the cap throws its one-line reason (runIfMain reports it). */
export function readStdinSync(): string {
  const r = readStdin();
  if (!r.ok) throw new Error(r.error);
  return r.text;
}

/** Two-column text with the first column padded. */
export function table(rows: readonly (readonly [string, string])[], indent = '  '): string {
  const w = Math.max(0, ...rows.map((r) => r[0].length));
  return rows.map(([k, v]) => `${indent}${k.padEnd(w)}  ${v}`).join('\n');
}

/** Runs `main` when `moduleUrl` is the script node started; writes its output (escaped, src/cli/output.ts) and sets the exit code. */
export function runIfMain(moduleUrl: string, main: (argv: readonly string[], stdin: () => string) => CliResult): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  let r: CliResult;
  try {
    r = main(process.argv.slice(2), readStdinSync);
  } catch (e) {
    r = usageError((e as Error).message.split('\n')[0]);
  }
  emit(r);
}
