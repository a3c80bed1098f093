import { useId, useState } from 'react';
import { GPUS, parseCapacity } from '../../core/gpus';
import { useApp } from '../../state/store';
import { URL_LIMITS } from '../../state/url-query';
import { useT } from '../i18n';
import { formatBytes } from '../i18n/format';
import { CatalogueOptions } from './catalogue-options';
import { CheapestCard } from './cheapest-card';
import { PickedMark } from './picked-mark';
import { gpuName, resolveAll } from './gpu-list';
import { readSavedGpus, SavedGpus, savedGpuName } from './saved-gpus';
import { useLoaded } from '../forms/saved-list';

/**
 * Pick several GPUs from the catalogue (each marked fits / tight / does not fit for the scenario),
 * or type a custom capacity in GiB or GB; the cheapest kind of card that fits is named on top.
 */
export function GpuPicker() {
  const t = useT();
  const id = useId();
  const specs = useApp((s) => s.gpus);
  const unit = useApp((s) => s.unit);
  const setGpus = useApp((s) => s.setGpus);
  const [pick, setPick] = useState(GPUS[0].id);
  const [cap, setCap] = useState('');
  const [capUnit, setCapUnit] = useState<'gib' | 'gb'>('gib');
  const [capErr, setCapErr] = useState(false);
  const [saved, refreshSaved] = useLoaded(readSavedGpus);
  const chosen = resolveAll(specs);
  const typed = `${cap.trim()}${capUnit}`;
  const typedOk = parseCapacity(typed) !== null;
  const nameOf = (c: (typeof chosen)[number]) => (c.gpu.id === 'custom' ? savedGpuName(saved, c.gpu.capacityBytes) : undefined) ?? gpuName(c);
  // a share link carries at most this many
  const full = specs.length >= URL_LIMITS.compare;
  const addCustom = () => {
    setCapErr(!typedOk);
    if (typedOk) {
      setGpus([...specs, typed]);
      setCap('');
    }
  };
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('gpu.title')}</h2>
      <CheapestCard />
      {chosen.length === 0 && <p className="small muted">{t('gpu.none')}</p>}
      <ul className="gpu-chips" aria-label={t('gpu.chosen')}>
        {chosen.map((c) => (
          <li key={c.spec}>
            <span>
              {nameOf(c)} <span className="muted small">({formatBytes(c.gpu.capacityBytes, unit, t.lang)})</span>
            </span>
            <button type="button" aria-label={t('gpu.remove', { name: nameOf(c) })} onClick={() => setGpus(specs.filter((x) => x !== c.spec))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="row gpu-add">
        <div className="field">
          <label htmlFor={`${id}-cat`}>{t('gpu.catalogue')}</label>
          <select id={`${id}-cat`} value={pick} onChange={(e) => setPick(e.target.value)}>
            <CatalogueOptions />
          </select>
        </div>
        <button type="button" onClick={() => setGpus([...specs, pick])} disabled={full || specs.includes(pick)}>
          {t('gpu.add')}
        </button>
      </div>
      <PickedMark id={pick} />
      <p className="field-help">{t('gpu.tightHelp')}</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          addCustom();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-cap`}>{t('gpu.custom')}</label>
          <input
            id={`${id}-cap`}
            type="text"
            inputMode="decimal"
            value={cap}
            placeholder="24"
            aria-invalid={capErr || undefined}
            aria-describedby={capErr ? `${id}-caperr` : undefined}
            onChange={(e) => setCap(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-unit`}>{t('unit.label')}</label>
          <select id={`${id}-unit`} value={capUnit} onChange={(e) => setCapUnit(e.target.value as 'gib' | 'gb')}>
            <option value="gib">GiB</option>
            <option value="gb">GB</option>
          </select>
        </div>
        <button type="submit" disabled={full}>
          {t('gpu.addCustom')}
        </button>
      </form>
      {capErr && (
        <p id={`${id}-caperr`} className="field-msg" role="alert">
          {t('gpu.badCapacity')}
        </p>
      )}
      <p className="field-help">{t('gpu.customHelp')}</p>
      {full && <p className="field-why">{t('gpu.full', { n: URL_LIMITS.compare })}</p>}
      <SavedGpus
        saved={saved}
        refresh={refreshSaved}
        capacity={typedOk ? typed : null}
        onPick={(spec) => {
          if (!full && !specs.includes(spec)) setGpus([...specs, spec]);
        }}
      />
      <p className="field-help">{t('gpu.gibNote')}</p>
    </section>
  );
}
