/**
 * The lab's state in the query string under `lab.*` keys (passed through by src/state/url-codec.ts).
 * Writing merges with the current query: every other key keeps its exact spelling and order.
 */

export type LabPanel = 'oom' | 'summary' | 'sim';
export const LAB_PANELS: readonly LabPanel[] = ['oom', 'summary', 'sim'];

export interface LabUrlState {
  panel: LabPanel;
  /** preset id, when the trace is an unchanged preset */
  preset?: string;
  /** custom trace text, when short enough */
  trace?: string;
  /** capacity override as typed, e.g. "24GiB" */
  cap?: string;
  /** PYTORCH_CUDA_ALLOC_CONF override */
  conf?: string;
  /** step shown (−1 = before the first event) */
  step?: number;
  /** pasted OOM text, when short enough */
  oom?: string;
  /** pasted memory_summary() text, when short enough */
  summary?: string;
}

/** Longest texts kept in the link (characters); longer ones are left out rather than cut. */
export const LAB_URL_LIMITS = { trace: 2000, oom: 2500, summary: 1500, short: 200 } as const;

const PREFIX = 'lab.';

function dec(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Lone UTF-16 surrogates (which encodeURIComponent rejects) become U+FFFD; pairs stay. */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Percent-encoding that keeps ',', ':' and '/' readable, like url-codec.ts. */
function enc(s: string): string {
  return encodeURIComponent(wellFormed(s)).replace(/%2F/g, '/').replace(/%2C/g, ',').replace(/%3A/g, ':');
}

function chunks(search: string): string[] {
  const q = search.replace(/^[^?]*\?/, '').replace(/#.*$/, '');
  return q.split('&').filter((c) => c !== '');
}

const keyOf = (chunk: string) => dec(chunk.split('=')[0]) ?? '';

/** Reads the lab's keys; anything malformed falls back to the default. Never throws. */
export function readLabState(search: string): LabUrlState {
  const v = Object.create(null) as Record<string, string>;
  for (const c of chunks(search)) {
    const k = keyOf(c);
    const name = k.slice(PREFIX.length);
    if (!k.startsWith(PREFIX) || name in v || !c.includes('=')) continue;
    const val = dec(c.slice(c.indexOf('=') + 1));
    if (val !== null) v[name] = val;
  }
  const panel = LAB_PANELS.includes(v.panel as LabPanel) ? (v.panel as LabPanel) : 'oom';
  const s: LabUrlState = { panel };
  const text = (name: 'preset' | 'trace' | 'cap' | 'conf' | 'oom' | 'summary', max: number) => {
    const x = v[name];
    if (x !== undefined && x.length <= max) s[name] = x;
  };
  text('preset', LAB_URL_LIMITS.short);
  text('trace', LAB_URL_LIMITS.trace);
  text('cap', LAB_URL_LIMITS.short);
  text('conf', LAB_URL_LIMITS.short);
  text('oom', LAB_URL_LIMITS.oom);
  text('summary', LAB_URL_LIMITS.summary);
  if (v.step !== undefined && /^-?\d{1,9}$/.test(v.step)) s.step = Math.max(-1, Number(v.step));
  return s;
}

/** The query (no '?') with the lab's keys replaced by `state`'s; other keys untouched. */
export function mergeLabQuery(search: string, state: LabUrlState): string {
  const kept = chunks(search).filter((c) => !keyOf(c).startsWith(PREFIX));
  const add = (k: string, val: string | number | undefined, max: number = LAB_URL_LIMITS.short) => {
    if (val === undefined || val === '') return;
    const str = String(val);
    if (str.length <= max) kept.push(`${PREFIX}${k}=${enc(str)}`);
  };
  add('panel', state.panel);
  add('preset', state.preset);
  add('trace', state.trace, LAB_URL_LIMITS.trace);
  add('cap', state.cap);
  add('conf', state.conf);
  add('step', state.step);
  add('oom', state.oom, LAB_URL_LIMITS.oom);
  add('summary', state.summary, LAB_URL_LIMITS.summary);
  return kept.join('&');
}

/** Writes the lab's keys into the address bar with history.replaceState (no new history entry). */
export function writeLabState(state: LabUrlState): void {
  const q = mergeLabQuery(location.search, state);
  const url = `${location.pathname}${q ? `?${q}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
}
