/**
 * Command-line flags -> the scenario record (external key names, as in the URL).
 * Grammar: `--key value` or `--key=value` for every schema key (src/core/scenario), bare boolean
 * architecture flags (`--tied`), meta flags `--json`, `--timeline`, `--rule-of-thumb DTYPE`, `--hub ID` and `--help`, or one share URL / query string
 * as the only argument. Pure: no I/O, never throws.
 */
import { ARCH_FIELDS, ALL_KEYS, closest } from '../core/scenario';
import { quoteArg } from './output';

export interface CliArgs {
  /** scenario keys and raw values, as parseScenario reads them */
  record: Record<string, string>;
  json: boolean;
  /** --timeline: add the replayed step timeline (src/core/timeline); absent when not given */
  timeline?: boolean;
  help: boolean;
  /** --recommend: rank the GPU catalogue for the scenario */
  recommend: boolean;
  /** --solve: largest batch, longest context and fewest GPUs on --gpu */
  solve: boolean;
  /** a share link or its query string, given as the only argument */
  url: string | null;
  /** --rule-of-thumb DTYPE: the guides' rule of thumb at that width beside the estimate (src/core/rule-of-thumb.ts) */
  ruleOfThumb?: string;
  /** --hub ID: read config.json and the safetensors headers of a Hugging Face model (src/core/hub) */
  hub?: string;
}

export type ArgsResult = { ok: true; args: CliArgs } | { ok: false; error: string };

const KEYS = new Set(ALL_KEYS);
const BOOL_KEYS = new Set(ARCH_FIELDS.filter((f) => f.kind.type === 'bool').map((f) => f.name));
const META = new Set(['json', 'help', 'recommend', 'solve', 'timeline']);
/** Meta flags that take a value. */
const META_VALUED = new Set(['rule-of-thumb', 'hub']);
/** Longest argument we read (a share URL can be long; anything beyond is abuse). */
const MAX_ARG = 64 * 1024;

const looksLikeUrl = (a: string) => /^https?:\/\//i.test(a) || a.startsWith('?') || /^[\w.-]+=/.test(a);

function unknownFlag(name: string): string {
  const near = closest(name, [...ALL_KEYS, ...META, ...META_VALUED], 1);
  return `unknown flag ${quoteArg(`--${name}`, 42, true)}${near.length ? ` (did you mean --${near[0]}?)` : ''}; see --help`;
}

/** Parse argv (without the node/script prefix). */
export function parseArgs(argv: readonly string[]): ArgsResult {
  const args: CliArgs = { record: Object.create(null) as Record<string, string>, json: false, help: false, recommend: false, solve: false, url: null };
  const fail = (error: string): ArgsResult => ({ ok: false, error });
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = String(argv[i]);
    if (a.length > MAX_ARG) return fail(`argument ${i + 1} is longer than ${MAX_ARG} characters`);
    if (a === '-h') {
      args.help = true;
      continue;
    }
    if (!a.startsWith('--') || a === '--') {
      if (a !== '--') positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = (eq >= 0 ? a.slice(2, eq) : a.slice(2)).toLowerCase();
    if (META.has(name)) {
      if (eq >= 0) return fail(`--${name} takes no value`);
      if (name === 'json') args.json = true;
      else if (name === 'recommend') args.recommend = true;
      else if (name === 'solve') args.solve = true;
      else if (name === 'timeline') args.timeline = true;
      else args.help = true;
      continue;
    }
    if (META_VALUED.has(name)) {
      const hub = name === 'hub';
      if ((hub ? args.hub : args.ruleOfThumb) !== undefined) return fail(`--${name} is given twice`);
      const value = eq >= 0 ? a.slice(eq + 1) : i + 1 < argv.length && !String(argv[i + 1]).startsWith('--') ? String(argv[++i]) : undefined;
      if (value === undefined || value === '') return fail(hub ? '--hub needs a model id (owner/name, e.g. Qwen/Qwen2.5-7B-Instruct)' : `--${name} needs a dtype (fp64, fp32, fp16, bf16, int8, int4)`);
      if (hub) args.hub = value;
      else args.ruleOfThumb = value.toLowerCase();
      continue;
    }
    if (!KEYS.has(name)) return fail(unknownFlag(name));
    if (Object.hasOwn(args.record, name)) return fail(`--${name} is given twice`);
    let value: string | undefined;
    if (eq >= 0) value = a.slice(eq + 1);
    else if (BOOL_KEYS.has(name) && (i + 1 >= argv.length || String(argv[i + 1]).startsWith('--'))) value = 'true';
    else if (i + 1 < argv.length && !String(argv[i + 1]).startsWith('--')) value = String(argv[++i]);
    if (value === undefined) return fail(`--${name} needs a value`);
    args.record[name] = value;
  }
  if (positional.length > 0) {
    if (positional.length === 1 && Object.keys(args.record).length === 0 && looksLikeUrl(positional[0])) {
      args.url = positional[0];
    } else {
      const extra = positional[positional.length > 1 && looksLikeUrl(positional[0]) ? 1 : 0];
      return fail(`unexpected argument ${quoteArg(extra, 60)} (a share URL must be the only argument besides --json)`);
    }
  }
  return { ok: true, args };
}
