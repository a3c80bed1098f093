/**
 * The page's one store: the scenarios being compared (the URL-able state) plus view settings.
 * Derived values (estimates, fits) are computed in components from these, never stored.
 */
import { create } from 'zustand';
import type { Scenario, TermId } from '../core/types';
import { defaultScenario } from '../core/scenario/schema';

/** Page language (the UI holds a table of strings for each). */
export type Lang = 'en' | 'zh';
/** How byte counts are shown: binary GiB (PyTorch, nvidia-smi) or decimal GB (vendors). */
export type ByteUnit = 'GiB' | 'GB';
/** Colour scheme: the system's ('auto'), or one forced by the link (`theme=light|dark`). */
export type Theme = 'auto' | 'light' | 'dark';
export type ViewId = 'calculator' | 'lab' | 'layers' | 'accuracy';
export const VIEWS: readonly ViewId[] = ['calculator', 'lab', 'layers', 'accuracy'];
/** At most this many scenarios side by side. */
export const MAX_SCENARIOS = 4;

/** The page-level notices; the UI translates each key (its string tables must hold them). */
export type NoticeKey = 'notice.urlIgnored' | 'notice.urlWarnings' | 'notice.savedCorrupt' | 'notice.noStorage' | 'notice.updateReady';

export interface Notice {
  id: string;
  key: NoticeKey;
  params?: Record<string, string | number>;
}

export interface AppState {
  scenarios: Scenario[];
  active: number;
  lang: Lang;
  unit: ByteUnit;
  embed: boolean;
  theme: Theme;
  /** scenario keys (URL names) the embed shows as inputs; none = the result alone */
  controls: string[];
  view: ViewId;
  /** GPUs compared: catalogue ids and custom entries ('custom-<bytes>') */
  gpus: string[];
  /** the term whose derivation is open */
  term: TermId | null;
  notices: Notice[];
  /** change one key of the active scenario */
  set: <K extends keyof Scenario>(key: K, value: Scenario[K]) => void;
  /** change several keys of the active scenario at once */
  patch: (p: Partial<Scenario>) => void;
  addScenario: () => void;
  removeScenario: (i: number) => void;
  setActive: (i: number) => void;
  setLang: (l: Lang) => void;
  setUnit: (u: ByteUnit) => void;
  setView: (v: ViewId) => void;
  setGpus: (ids: string[]) => void;
  openTerm: (t: TermId | null) => void;
  notify: (n: Notice) => void;
  dismiss: (id: string) => void;
}

export type AppData = Pick<AppState, 'scenarios' | 'active' | 'lang' | 'unit' | 'embed' | 'theme' | 'controls' | 'view' | 'gpus' | 'term' | 'notices'>;

/**
 * The GPU a fresh page (a blank link) opens with: a common 24 GB card, so the first screen answers
 * "will it fit?". The scenario schema's own default stays "no GPU" (DEFAULT_SCENARIO.gpu = ''), so
 * a share link without `gpu=` still means what it meant; the page always writes `gpu=` when one is chosen.
 */
export const DEFAULT_GPU = 'rtx-4090';

/** The state a fresh page starts from (before the URL is read). */
export function initialData(): AppData {
  return {
    scenarios: [{ ...defaultScenario(), gpu: DEFAULT_GPU }],
    active: 0,
    lang: 'en',
    unit: 'GiB',
    embed: false,
    theme: 'auto',
    controls: [],
    view: 'calculator',
    gpus: [DEFAULT_GPU],
    term: null,
    notices: [],
  };
}

function updateActive(s: AppState, p: Partial<Scenario>): Partial<AppState> {
  const scenarios = s.scenarios.slice();
  scenarios[s.active] = { ...scenarios[s.active], ...p };
  return { scenarios };
}

export const useApp = create<AppState>()((set) => ({
  ...initialData(),
  set: (key, value) => set((s) => updateActive(s, { [key]: value })),
  patch: (p) => set((s) => updateActive(s, p)),
  addScenario: () => set((s) => (s.scenarios.length >= MAX_SCENARIOS ? {} : { scenarios: [...s.scenarios, { ...s.scenarios[s.active] }], active: s.scenarios.length })),
  removeScenario: (i) =>
    set((s) => {
      if (s.scenarios.length <= 1 || i < 0 || i >= s.scenarios.length) return {};
      const scenarios = s.scenarios.filter((_, j) => j !== i);
      const active = Math.min(s.active > i ? s.active - 1 : s.active, scenarios.length - 1);
      return { scenarios, active };
    }),
  setActive: (i) => set((s) => (i >= 0 && i < s.scenarios.length ? { active: i } : {})),
  setLang: (lang) => set({ lang }),
  setUnit: (unit) => set({ unit }),
  setView: (view) => set({ view }),
  setGpus: (ids) =>
    set((s) => {
      const gpus = [...new Set(ids)];
      // the first GPU is every scenario's own (it drives engine budgets such as vLLM's)
      const gpu = gpus[0] ?? '';
      return { gpus, scenarios: s.scenarios.map((x) => (x.gpu === gpu ? x : { ...x, gpu })) };
    }),
  openTerm: (term) => set({ term }),
  notify: (n) => set((s) => ({ notices: [...s.notices.filter((o) => o.id !== n.id), n] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));

/** The scenario being edited. */
export const selectActive = (s: AppState): Scenario => s.scenarios[s.active];

/** Every column's scenario. */
export const selectScenarios = (s: AppState): Scenario[] => s.scenarios;
