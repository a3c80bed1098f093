import { lazy, memo, Suspense, useMemo } from 'react';
import type { Estimate, Scenario } from '../../core/types';
import { selectActive, useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes, formatCount, formatNumber } from '../i18n/format';
import { useShownEstimate } from './use-replay';
import { useSettled } from './use-settled';
import { estimatorLoading, estimatorReady } from './estimator-loader';

// 80 % error bands from the Accuracy view's data, loaded on demand (keeps its rows out of the first load)
const ErrorBand = lazy(() => import('../accuracy/error-band'));
const BandRange = lazy(() => import('../accuracy/error-band').then((m) => ({ default: m.BandRange })));

/**
 * The three totals with what each one means (the fit verdict is Verdict's, above). They follow
 * every slider step in the step's own render and frame, like the verdict and the scenario tabs.
 */
export function Headline() {
  const t = useT();
  const s = useApp(selectActive);
  const r = useShownEstimate(s);
  const loading = estimatorLoading(r);
  if (loading) {
    return (
      <section className="panel" aria-labelledby="result-h" aria-busy="true">
        <h2 id="result-h">{t('result.title')}</h2>
        <p>{t(loading)}</p>
      </section>
    );
  }
  if (!r.ok) {
    return (
      <section className="panel" aria-labelledby="result-h">
        <h2 id="result-h">{t('result.title')}</h2>
        <p className="nofit">{t('result.cannot')}</p>
        <ul className="field-msg">
          {r.errors.map((e, i) => (
            <li key={i}>{t.core(e)}</li>
          ))}
        </ul>
      </section>
    );
  }
  return <Totals s={s} est={r.value} />;
}

function Totals({ s, est }: { s: Scenario; est: Estimate }) {
  const t = useT();
  const unit = useApp((st) => st.unit);
  const settled = useSettled(selectActive);
  // the bands score the settled scenario's kind, which needs its estimator: until that chunk is in
  // (the loader then renews the scenarios, and so the settled one) the bands wait
  const ready = estimatorReady(settled);
  // the same element while the settled scenario stands, so React skips the band on every slider step
  const band = useMemo(
    () =>
      ready ? (
        <Suspense fallback={null}>
          <ErrorBand s={settled} />
        </Suspense>
      ) : null,
    [settled, ready],
  );
  const b = (n: number) => formatBytes(n, unit, t.lang);
  const range = (bytes: number, total: string) =>
    ready ? (
      <Suspense fallback={<div className="v-band" />}>
        <BandRange s={settled} bytes={bytes} testId={`band-${total}`} />
      </Suspense>
    ) : (
      <div className="v-band" />
    );
  const split = s.gpus > 1;
  return (
    <section className="panel" aria-labelledby="result-h">
      <h2 id="result-h">{split ? t('result.titlePerGpu', { n: s.gpus }) : t('result.title')}</h2>
      <div className="headline">
        <div className="stat">
          <div className="k">{t('total.device')}</div>
          <div className="v" data-testid="device-total">
            {b(est.deviceBytes)}
          </div>
          {range(est.deviceBytes, 'device')}
          <p>{t('total.deviceHelp')}</p>
        </div>
        <div className="stat">
          <div className="k">{t('total.reserved')}</div>
          <div className="v">{b(est.reservedBytes)}</div>
          <TorchName name="torch.cuda.max_memory_reserved()" />
          {range(est.reservedBytes, 'reserved')}
          <p>{t('total.reservedHelp')}</p>
        </div>
        <div className="stat">
          <div className="k">{t('total.allocated')}</div>
          <div className="v">{b(est.allocatedBytes)}</div>
          <TorchName name="torch.cuda.max_memory_allocated()" />
          {range(est.allocatedBytes, 'allocated')}
          <p>{t('total.allocatedHelp')}</p>
        </div>
        <div className="stat">
          <div className="k">{t('total.params')}</div>
          <div className="v">{formatCount(est.params.total, t.lang)}</div>
          <p>{t('total.paramsHelp', { trainable: formatCount(est.params.trainable, t.lang), active: formatCount(est.params.active, t.lang) })}</p>
        </div>
      </div>
      {band}
      {est.engine && <EngineLine est={est} />}
      {est.notes.length > 0 && (
        <ul className="small muted">
          {est.notes.map((n, i) => (
            <li key={i}>{t.core(n)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A torch API name that may wrap only after a '.' or '_', never inside a word (memoised: it never changes with a step). */
const TorchName = memo(function TorchName({ name }: { name: string }) {
  const parts = name.split(/(?<=[._])/);
  return (
    <code className="torch">
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </code>
  );
});

function EngineLine({ est }: { est: Estimate }) {
  const t = useT();
  const unit = useApp((s) => s.unit);
  const b = (n: number) => formatBytes(n, unit, t.lang);
  const e = est.engine!;
  const parts: string[] = [];
  if (e.kvTokens !== undefined) parts.push(t('engine.kvTokens', { n: formatNumber(e.kvTokens, t.lang, 0) }));
  if (e.concurrency !== undefined) parts.push(t('engine.concurrency', { n: formatNumber(e.concurrency, t.lang, 2) }));
  if (e.gpuLayers !== undefined) parts.push(t('engine.gpuLayers', { n: formatNumber(e.gpuLayers, t.lang, 0) }));
  if (est.perGpu) parts.push(t('engine.perGpu', { list: est.perGpu.map(b).join(' / ') }));
  const h = e.host;
  if (h) parts.push(t('engine.host', { bytes: b(h.bytes), emb: b(h.embeddingAndOutput), layers: b(h.layers), kv: b(h.kv), buffers: b(h.buffers) }));
  return parts.length ? <p className="small">{parts.join(' · ')}</p> : null;
}
