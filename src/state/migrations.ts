/**
 * The one version and migration chain of every link the page writes: calculator keys, page extras
 * and the other views' `lab.*` / `net.*` keys alike. Each migration rewrites the key/value pairs of
 * one version into the next one, so a link shared years ago still opens the same state in every
 * view. To change any view's keys: bump URL_VERSION, add a migration from the previous version,
 * document both in docs/url-schema.md.
 */
import type { Pairs } from './url-query';

/** The version encodeUrl writes (`v=2`). */
export const URL_VERSION = 2;

export interface Migration {
  from: number;
  /** what changed, for docs and the changelog */
  summary: string;
  migrate(pairs: Pairs): Pairs;
}

/**
 * v0: links without a `v` field, written before versioning. They used short aliases
 * (`bs`, `quant`, `ctx`) and a boolean `grad-ckpt`. Keys already in the v1 spelling pass unchanged.
 */
const V0_ALIASES: Record<string, string> = { bs: 'batch', quant: 'weights', ctx: 'prompt' };
const V0_BOOL_CKPT: Record<string, string> = { true: 'full', '1': 'full', false: 'none', '0': 'none' };

export const MIGRATIONS: readonly Migration[] = [
  {
    from: 0,
    summary: 'aliases bs -> batch, quant -> weights, ctx -> prompt; grad-ckpt=true|false -> full|none',
    migrate: (pairs) => {
      const seen = new Set(pairs.map(([k]) => k));
      const out: Pairs = [];
      for (const [k, v] of pairs) {
        const key = Object.hasOwn(V0_ALIASES, k) ? V0_ALIASES[k] : k;
        if (key !== k && seen.has(key)) continue; // the v1 spelling wins over its alias
        const value = key === 'grad-ckpt' && Object.hasOwn(V0_BOOL_CKPT, v) ? V0_BOOL_CKPT[v] : v;
        out.push([key, value]);
      }
      return out;
    },
  },
  {
    from: 1,
    summary: 'weights=int8 (bitsandbytes LLM.int8 until v1) -> weights=bnb-int8; int8 / int4 now name plain integer storage',
    migrate: (pairs) => pairs.map(([k, v]): [string, string] => (k === 'weights' && v === 'int8' ? [k, 'bnb-int8'] : [k, v])),
  },
];

/** Apply every migration from `version` up to URL_VERSION. Versions above the current one pass unchanged. */
export function migrate(pairs: Pairs, version: number): Pairs {
  let out = pairs;
  for (const m of MIGRATIONS) if (m.from >= version && m.from < URL_VERSION) out = m.migrate(out);
  return out;
}
