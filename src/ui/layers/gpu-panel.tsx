import { useId, useState } from 'react';
import { GPUS, parseCapacity } from '../../core/gpus';
import { useApp } from '../../state/store';
import { gpuName } from '../calculator/gpu-list';
import { readSavedGpus, savedGpuName } from '../calculator/saved-gpus';
import { capacitySpec } from '../../state/storage/gpus';
import { useLoaded } from '../forms/saved-list';
import { useT } from '../i18n';
import { formatBytes, formatNumber } from '../i18n/format';
import { useLT } from './layers-i18n';
import { useNet } from './net-store';
import type { GpuFit } from './use-network';
import { MAX_GPUS } from './net-url';

/** Chosen GPUs (catalogue or a typed capacity), each with its fit and largest batch. */
export function GpuPanel({ fits, batch }: { fits: GpuFit[]; batch: number }) {
  const t = useLT();
  const pageT = useT();
  // saved custom GPUs (Calculator → Saved GPUs) are offered beside the catalogue
  const [saved] = useLoaded(readSavedGpus);
  const id = useId();
  const unit = useApp((s) => s.unit);
  const gpus = useNet((s) => s.gpus);
  const update = useNet((s) => s.update);
  const [pick, setPick] = useState(GPUS.find((g) => !gpus.includes(g.id))?.id ?? GPUS[0].id);
  const [cap, setCap] = useState('');
  const [capBad, setCapBad] = useState(false);
  const add = (spec: string) => update({ gpus: [...gpus.filter((g) => g !== spec), spec].slice(-MAX_GPUS) });
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('gpu.title')}</h2>
      {fits.length === 0 && <p className="small muted">{t('gpu.none')}</p>}
      <ul className="net-fits">
        {fits.map((f) => {
          const name = (f.gpu.id === 'custom' ? savedGpuName(saved, f.gpu.capacityBytes) : undefined) ?? gpuName(f);
          return (
            <li key={f.spec}>
              <div>
                <strong>{name}</strong> <span className="muted small">{formatBytes(f.gpu.capacityBytes, unit, t.lang)}</span>
                <button type="button" className="net-x" aria-label={t('gpu.remove', { name })} onClick={() => update({ gpus: gpus.filter((g) => g !== f.spec) })}>
                  ×
                </button>
              </div>
              {f.fits !== null && <div className={f.fits ? 'fits' : 'nofit'}>{t(f.fits ? 'gpu.fits' : 'gpu.nofit', { b: formatNumber(batch, t.lang) })}</div>}
              {f.maxBatch !== null && <div className="small">{f.maxBatch > 0 ? t('gpu.maxBatch', { n: formatNumber(f.maxBatch, t.lang) }) : t('gpu.noBatch')}</div>}
            </li>
          );
        })}
      </ul>
      <div className="row">
        <div className="field">
          <label htmlFor={`${id}-cat`} className="visually-hidden">
            {t('gpu.title')}
          </label>
          <select id={`${id}-cat`} value={pick} onChange={(e) => setPick(e.target.value)}>
            {GPUS.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name} — {g.memoryStated}
              </option>
            ))}
            {saved.items.length > 0 && (
              <optgroup label={pageT('savedGpu.title')}>
                {saved.items.map((i) => (
                  <option key={i.name} value={capacitySpec(i.value.capacityBytes)}>
                    {i.name} — {formatBytes(i.value.capacityBytes, unit, t.lang)}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </div>
        <button type="button" onClick={() => add(pick)} disabled={gpus.includes(pick)}>
          {t('gpu.add')}
        </button>
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const spec = cap.trim().toLowerCase().replace(/\s+/g, '');
          const ok = parseCapacity(spec) !== null;
          setCapBad(!ok);
          if (ok) {
            add(spec);
            setCap('');
          }
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-cap`}>{t('gpu.custom')}</label>
          <input
            id={`${id}-cap`}
            type="text"
            value={cap}
            placeholder="24gib"
            aria-invalid={capBad || undefined}
            aria-describedby={capBad ? `${id}-caperr` : undefined}
            onChange={(e) => setCap(e.target.value)}
          />
        </div>
        <button type="submit">{t('gpu.addCustom')}</button>
      </form>
      {capBad && (
        <p id={`${id}-caperr`} className="field-msg" role="alert">
          {t('gpu.bad')}
        </p>
      )}
    </section>
  );
}
