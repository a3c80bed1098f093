/**
 * Command-line arguments shared by the generators: `[input] [--out output]`. Paths given on the
 * command line resolve against the working directory; the defaults are the repo's own data file
 * and generated module, found from this file's location (so no machine path is ever needed).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function repoArgs(argv, defaultSrc, defaultOut) {
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? argv[outAt + 1] : defaultOut;
  const rest = outAt >= 0 ? argv.filter((_, i) => i !== outAt && i !== outAt + 1) : argv;
  if (!out || rest.length > 1) {
    console.error(`usage: node <generator> [${defaultSrc}] [--out ${defaultOut}]`);
    process.exit(2);
  }
  return {
    src: rest[0] ? resolve(rest[0]) : resolve(ROOT, defaultSrc),
    out: outAt >= 0 ? resolve(out) : resolve(ROOT, defaultOut),
  };
}
