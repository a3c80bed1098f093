/**
 * The Allocator lab view (lazy-loaded): OOM decoder, memory_summary() reader and the caching
 * allocator simulator. Its state lives in `lab.*` link keys (lab-url.ts), read through the page's codec.
 */
import { startTransition, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { findPreset, TRACE_PRESETS } from '../../core/allocator/presets';
import { useLabT, type LabKey } from './lab-i18n';
import { decodeUrl } from '../../state/url-codec';
import { useApp } from '../../state/store';
import { LAB_PANELS, readLab, writeLabState, type LabPanel, type LabUrlState } from './lab-url';
import { OomPanel } from './oom-panel';
import { SummaryPanel } from './summary-panel';
import { SimPanel, type SimState } from './sim-panel';
import './lab.css';

/** How long the address bar waits after the last edit (ms). */
const URL_DELAY = 250;
const DEFAULT_PRESET = 'classic';

function initialSim(u: LabUrlState): SimState {
  const base = { cap: u.cap ?? '', conf: u.conf ?? '', step: u.step ?? null, imported: null, recorded: null };
  if (u.trace !== undefined) return { ...base, text: u.trace, preset: TRACE_PRESETS.find((p) => p.text === u.trace)?.id ?? null };
  const p = findPreset(u.preset ?? DEFAULT_PRESET) ?? findPreset(DEFAULT_PRESET)!;
  return { ...base, text: p.text, preset: p.id };
}

function urlState(panel: LabPanel, oom: string, summary: string, runconf: string, sim: SimState): LabUrlState {
  return {
    panel,
    oom: oom || undefined,
    summary: summary || undefined,
    runconf: runconf.trim() || undefined,
    preset: sim.preset ?? undefined,
    trace: sim.preset || sim.imported ? undefined : sim.text,
    cap: sim.cap.trim() || undefined,
    conf: sim.conf.trim() || undefined,
    step: sim.step ?? undefined,
  };
}

export default function LabView() {
  const t = useLabT();
  const [{ state: init, ignored }] = useState(() => readLab(decodeUrl(typeof location === 'undefined' ? '' : location.search).extra.views ?? {}));
  const [panel, setPanel] = useState<LabPanel>(init.panel);
  const [oom, setOom] = useState(init.oom ?? '');
  const [summary, setSummary] = useState(init.summary ?? '');
  const [runconf, setRunconf] = useState(init.runconf ?? '');
  const [sim, setSim] = useState<SimState>(() => initialSim(init));
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  // what the link asked of the lab but could not be used: the page's notice, beside the link's other problems
  useEffect(() => {
    if (ignored.length > 0) useApp.getState().notify({ id: 'url-lab', key: 'notice.urlIgnored', params: { list: ignored.join('; ') } });
  }, [ignored]);

  useEffect(() => {
    const timer = setTimeout(() => writeLabState(urlState(panel, oom, summary, runconf, sim)), URL_DELAY);
    return () => clearTimeout(timer);
  }, [panel, oom, summary, runconf, sim]);

  const onTabKey = (e: KeyboardEvent, i: number) => {
    const n = LAB_PANELS.length;
    const to = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i + n - 1) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    setPanel(LAB_PANELS[to]);
    tabs.current[to]?.focus();
  };

  const setText = (text: string) => setSim((s) => ({ ...s, text, imported: null, recorded: null, preset: TRACE_PRESETS.find((p) => p.text === text)?.id ?? null, step: null }));

  return (
    <div className="lab">
      <p className="lab-intro">{t('lab.intro')}</p>
      <div role="tablist" className="tabs lab-tabs" aria-label={t('lab.panels')}>
        {LAB_PANELS.map((p, i) => (
          <button
            key={p}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`lab-tab-${p}`}
            aria-selected={panel === p}
            aria-controls={`lab-panel-${p}`}
            tabIndex={panel === p ? 0 : -1}
            onClick={() => setPanel(p)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {t(`lab.panel.${p}` as LabKey)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`lab-panel-${panel}`} aria-labelledby={`lab-tab-${panel}`}>
        {panel === 'oom' && <OomPanel text={oom} onText={setOom} runconf={runconf} onRunconf={setRunconf} />}
        {panel === 'summary' && <SummaryPanel text={summary} onText={setSummary} runconf={runconf} onRunconf={setRunconf} />}
        {panel === 'sim' && (
          <SimPanel
            sim={sim}
            onText={setText}
            onImported={(imported, recorded) => startTransition(() => setSim((s) => ({ ...s, imported, recorded, preset: null, step: null })))}
            onPreset={(id) => setText(findPreset(id)?.text ?? sim.text)}
            onCap={(cap) => setSim((s) => ({ ...s, cap, step: null }))}
            onConf={(conf) => setSim((s) => ({ ...s, conf, step: null }))}
            onStep={(step) => setSim((s) => ({ ...s, step }))}
            onDecode={(message) => {
              setOom(message);
              setPanel('oom');
            }}
          />
        )}
      </div>
    </div>
  );
}
