/**
 * The page's only link to the address bar: read the URL once at start (bad parts -> defaults plus
 * a notice naming what was ignored), then mirror the store into the query with
 * history.replaceState (debounced, so editing does not flood the history). Only deliberate steps
 * (changeAsNewEntry) push an entry; Back and Forward read the URL again.
 */
import { decodeUrl, encodeUrl } from '../../state/url-codec';
import { serializeScenario } from '../../core/scenario';
import { DEFAULT_GPU, MAX_SCENARIOS, useApp, VIEWS, type AppState, type Lang, type ViewId } from '../../state/store';
import type { FieldError } from '../../core/types';
import { translateCore } from '../i18n';
import { preferredLang } from './lang-pref';

/**
 * The query string (without '?') for the state: every scenario column, the GPUs, page settings, and
 * the other views' `lab.*` / `net.*` state as given (`views`, from decodeUrl: already migrated).
 */
export function queryOf(s: Pick<AppState, 'scenarios' | 'gpus' | 'lang' | 'embed' | 'view' | 'unit' | 'theme' | 'controls'>, views?: Record<string, string>): string {
  return encodeUrl(s.scenarios[0], {
    lang: s.lang === 'en' ? undefined : s.lang,
    embed: s.embed || undefined,
    view: s.view === 'calculator' ? undefined : s.view,
    unit: s.unit,
    theme: s.theme === 'auto' ? undefined : s.theme,
    controls: s.controls,
    compare: s.gpus.length > 1 ? s.gpus : undefined,
    vs: s.scenarios.length > 1 ? s.scenarios.slice(1) : undefined,
    views,
  });
}

/**
 * The lab's and the layer builder's pairs of a query, as the codec reads them: written back in the
 * current version's spelling, so a migration of view keys takes effect with the first rewrite.
 */
const viewsOf = (search: string) => decodeUrl(search).extra.views;

/** The full shareable link for the current state. */
export function shareLink(loc: Pick<Location, 'origin' | 'pathname' | 'search'> = location): string {
  return `${loc.origin}${loc.pathname}?${queryOf(useApp.getState(), viewsOf(loc.search))}`;
}

/**
 * The widget's link (`embed=1`) for the current state, showing the inputs named in `controls`
 * (URL keys; unknown ones are dropped by the codec).
 */
export function embedLink(controls: string[], loc: Pick<Location, 'origin' | 'pathname'> = location): string {
  return `${loc.origin}${loc.pathname}?${queryOf({ ...useApp.getState(), embed: true, view: 'calculator', controls })}`;
}

/** Apply the URL to the store; returns what was ignored (for tests). */
export function readUrl(search: string): string[] {
  const d = decodeUrl(search);
  // the link's language, else the one picked here before, else the browser's
  const lang = d.extra.lang ? (d.extra.lang === 'zh' || d.extra.lang.startsWith('zh-') ? 'zh' : 'en') : preferredLang();
  const view = VIEWS.includes(d.extra.view as ViewId) ? (d.extra.view as ViewId) : 'calculator';
  const compare = d.extra.compare ?? [];
  // a blank link (no version, no scenario key, no GPU list: the bare page, `?lang=zh`) is not a share
  // link: it opens with the default GPU. Every share link carries `v`, and one without `gpu` means no GPU.
  const blank = d.version === 0 && compare.length === 0 && !d.extra.vs && Object.keys(serializeScenario(d.scenario)).length === 0;
  const scenario = blank ? { ...d.scenario, gpu: DEFAULT_GPU } : d.scenario;
  const first = scenario.gpu;
  useApp.setState({
    scenarios: [scenario, ...(d.extra.vs ?? [])].slice(0, MAX_SCENARIOS),
    active: 0,
    lang,
    embed: !!d.extra.embed,
    unit: d.extra.unit ?? 'GiB',
    theme: d.extra.theme ?? 'auto',
    controls: d.extra.controls ?? [],
    view,
    gpus: first && !compare.includes(first) ? [first, ...compare] : compare.length ? compare : first ? [first] : [],
  });
  return notifyUrl(search, lang);
}

/** A key the link keeps for the other mode (rules.ts: 'unused-key' with mode): state, not a mistake, on the page. */
const otherModesSetting = (w: FieldError): boolean => w.code === 'unused-key' && w.params?.with === 'mode';

/**
 * The page notices for what a link could not give (in `lang`); returns the ignored parts. Called
 * again once the Chinese tables have arrived, with the link as it was opened (syncUrl has since
 * rewritten the address bar), so the notices read in Chinese.
 */
export function notifyUrl(search: string, lang: Lang): string[] {
  const d = decodeUrl(search);
  const problems = [...new Set([...d.ignored, ...d.errors.filter((e) => e.code !== 'unknown-key').map((e) => translateCore(lang, e))])];
  if (problems.length > 0) useApp.getState().notify({ id: 'url', key: 'notice.urlIgnored', params: { list: problems.join('; ') } });
  // what the CLI prints as `warning:` for the same link (a newer link version, tokens beyond the model's context, …);
  // not the other mode's settings: the page's own links keep them so that switching mode back restores them
  const warnings = [...new Set(d.warnings.filter((w) => !otherModesSetting(w)).map((w) => translateCore(lang, w)))];
  if (warnings.length > 0) useApp.getState().notify({ id: 'url-warn', key: 'notice.urlWarnings', params: { list: warnings.join('; ') } });
  return problems;
}

const currentQuery = () => queryOf(useApp.getState(), viewsOf(location.search));

/** Writes what a debounced sync still owes the address bar; set while syncUrl runs. */
let flushPending: (() => void) | undefined;

/**
 * A deliberate change (such as "Apply" in how-to-make-it-fit) as its own history entry, so the
 * browser's Back undoes it: the entry before it is brought up to date first, then the change gets a
 * new one (pushState). Slider drags and typing keep replacing the current entry.
 */
export function changeAsNewEntry(change: () => void): void {
  flushPending?.();
  change();
  const q = currentQuery();
  if (`?${q}` !== location.search) history.pushState(history.state, '', `${location.pathname}?${q}${location.hash}`);
}

/**
 * Keep the address bar in step with the store, keeping the other views' pairs, and read the
 * URL again when Back or Forward moves to another entry. Returns the unsubscribe.
 */
export function syncUrl(delayMs = 120): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    const q = currentQuery();
    if (`?${q}` === location.search) return;
    history.replaceState(history.state, '', `${location.pathname}?${q}${location.hash}`);
  };
  write();
  const unsub = useApp.subscribe(() => {
    clearTimeout(timer);
    timer = setTimeout(write, delayMs);
  });
  const flush = () => {
    clearTimeout(timer);
    write();
  };
  const onPop = () => {
    clearTimeout(timer);
    readUrl(location.search);
  };
  flushPending = flush;
  addEventListener('popstate', onPop);
  return () => {
    clearTimeout(timer);
    unsub();
    removeEventListener('popstate', onPop);
    if (flushPending === flush) flushPending = undefined;
  };
}
