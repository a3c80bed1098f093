import { useId, useState } from 'react';
import { findNetworkPreset } from '../../core/layers/presets';
import { useApp } from '../../state/store';
import { formatBytes, formatNumber } from '../i18n/format';
import { CLASS_NAME, LEAF_KINDS, newLayer, type LeafKind } from './layer-fields';
import { useLT } from './layers-i18n';
import { formatBytesAuto, formatFlops, shapeLabel } from './net-format';
import { useNet } from './net-store';
import type { NetResult } from './use-network';
import { problemWords } from './layer-core-zh';

/** Headline figures, the edit count with an undo-all, and the first problem if any. */
export function SummaryPanel({ r }: { r: NetResult }) {
  const t = useLT();
  const id = useId();
  const unit = useApp((s) => s.unit);
  const s = useNet();
  const e = r.estimate;
  const acts = e?.terms.find((x) => x.id === 'activations')?.bytes ?? 0;
  const base = s.preset === 'custom' ? t('set.custom') : (findNetworkPreset(s.preset)?.label ?? s.preset);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('sum.title')}</h2>
      {r.error && (
        <div className="net-error" role="alert">
          <strong>{t('err.title')}</strong> {problemWords(t.lang, r.error.problem)}
        </div>
      )}
      {r.skipped.length > 0 && <p className="net-error">{t('err.skipped', { list: r.skipped.join(', ') })}</p>}
      {e && (
        <div className="headline">
          <div className="stat">
            <div className="k">{t('sum.params')}</div>
            <div className="v" data-testid="net-params" data-value={e.params.total}>
              {formatNumber(e.params.total, t.lang)}
            </div>
            {r.published !== null && (
              <p>
                {t('sum.published', { n: formatNumber(r.published, t.lang) })}
                {r.published === e.params.total ? ' ✓' : ''}
              </p>
            )}
          </div>
          <div className="stat">
            <div className="k">{t('sum.device', { b: formatNumber(s.batch, t.lang) })}</div>
            <div className="v" data-testid="net-device" data-value={e.deviceBytes}>
              {formatBytes(e.deviceBytes, unit, t.lang)}
            </div>
            <p>{t('sum.deviceHelp')}</p>
          </div>
          <div className="stat">
            <div className="k">{t('sum.acts')}</div>
            <div className="v" data-testid="net-acts" data-value={acts}>
              {formatBytesAuto(acts, unit, t.lang)}
            </div>
            <p>{t(s.mode === 'training' ? 'sum.actsTrain' : 'sum.actsInfer')}</p>
          </div>
          <div className="stat">
            <div className="k">{t('sum.flops')}</div>
            <div className="v">{formatFlops(e.flops, t.lang)}</div>
            <p>
              {t('sum.out')}: {shapeLabel(e.outShape)}
            </p>
          </div>
        </div>
      )}
      {e && <p className="field-help">{t('sum.notes')}</p>}
      {s.edits.length > 0 && (
        <p className="net-edits">
          {t('act.editsCount', { n: s.edits.length, base })}{' '}
          <button type="button" onClick={s.resetEdits}>
            {t('act.reset')}
          </button>
        </p>
      )}
    </section>
  );
}

/** Append a layer at the end of the network, with arguments that fit its output. */
export function AddLayer({ r }: { r: NetResult }) {
  const t = useLT();
  const id = useId();
  const edit = useNet((s) => s.edit);
  const [kind, setKind] = useState<LeafKind>('linear');
  const out = r.estimate?.outShape ?? [];
  return (
    <form
      className="row net-add"
      onSubmit={(ev) => {
        ev.preventDefault();
        edit({ op: 'ins', at: [{ list: 'body', i: r.layers.length }], fields: newLayer(kind, out) });
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-k`}>{t('add.title')}</label>
        <select id={`${id}-k`} value={kind} onChange={(ev) => setKind(ev.target.value as LeafKind)}>
          {LEAF_KINDS.map((k) => (
            <option key={k} value={k}>
              {CLASS_NAME[k] ?? k}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">{t('add.button')}</button>
    </form>
  );
}
