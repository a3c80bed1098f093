/**
 * What the lab keeps in the link, under `lab.*` keys. The page's one codec (src/state/url-codec.ts)
 * reads, migrates and escapes them; this file says what each means. Writing replaces only the lab's
 * keys: every other key keeps its exact spelling and order.
 */
import { replaceViewPairs, type Pairs } from '../../state/url-query';

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
  /** pasted memory_summary() text (or memory_stats() dict), when short enough */
  summary?: string;
  /** the PYTORCH_CUDA_ALLOC_CONF the pasted run had: advice leaves out what it sets (not the simulator's `conf`) */
  runconf?: string;
}

/** Longest texts kept in the link (characters); longer ones are left out rather than cut. */
export const LAB_URL_LIMITS = { trace: 2000, oom: 2500, summary: 1500, short: 200 } as const;

const PREFIX = 'lab.';
type TextKey = 'preset' | 'trace' | 'cap' | 'conf' | 'oom' | 'summary' | 'runconf';
/** The keys after `panel`, in the order the link writes them, each with the longest value kept (characters). */
const FIELDS: readonly [TextKey | 'step', number][] = [
  ['preset', LAB_URL_LIMITS.short],
  ['trace', LAB_URL_LIMITS.trace],
  ['cap', LAB_URL_LIMITS.short],
  ['conf', LAB_URL_LIMITS.short],
  ['step', LAB_URL_LIMITS.short],
  ['oom', LAB_URL_LIMITS.oom],
  ['summary', LAB_URL_LIMITS.summary],
  ['runconf', LAB_URL_LIMITS.short],
];
const KNOWN = new Set(['panel', ...FIELDS.map(([k]) => k)]);
const STEP = /^-?\d{1,9}$/;

/**
 * The lab's state from a link's decoded, migrated `lab.*` values (url-codec's `extra.views`).
 * Never throws; every value that could not be used is named in `ignored` and its default kept.
 * An empty value is an absent one (the writer never writes one).
 */
export function readLab(views: Readonly<Record<string, string>>): { state: LabUrlState; ignored: string[] } {
  const ignored: string[] = [];
  const value = (k: string): string | undefined => (Object.hasOwn(views, PREFIX + k) && views[PREFIX + k] !== '' ? views[PREFIX + k] : undefined);
  const panel = value('panel');
  const known = panel !== undefined && LAB_PANELS.includes(panel as LabPanel);
  if (panel !== undefined && !known) ignored.push(`${PREFIX}panel=${panel.slice(0, 30)}`);
  const state: LabUrlState = { panel: known ? (panel as LabPanel) : 'oom' };
  for (const [k, max] of FIELDS) {
    const x = value(k);
    if (x === undefined) continue;
    if (x.length > max) ignored.push(`${PREFIX}${k} (over ${max} characters)`);
    else if (k !== 'step') state[k] = x;
    else if (STEP.test(x)) state.step = Math.max(-1, Number(x));
    else ignored.push(`${PREFIX}step=${x.slice(0, 30)}`);
  }
  for (const k of Object.keys(views)) if (k.startsWith(PREFIX) && !KNOWN.has(k.slice(PREFIX.length))) ignored.push(k.slice(0, 40));
  return { state, ignored };
}

/** The `lab.*` pairs for a state: unset and empty values left out, texts over their limit left out rather than cut. */
export function labPairs(state: LabUrlState): Pairs {
  const out: Pairs = [[`${PREFIX}panel`, state.panel]];
  for (const [k, max] of FIELDS) {
    const v = state[k];
    if (v !== undefined && v !== '' && String(v).length <= max) out.push([PREFIX + k, String(v)]);
  }
  return out;
}

/** Writes the lab's keys into the address bar with history.replaceState (no new history entry); other keys untouched. */
export function writeLabState(state: LabUrlState): void {
  const q = replaceViewPairs(location.search, PREFIX, labPairs(state));
  const url = `${location.pathname}${q ? `?${q}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
}
