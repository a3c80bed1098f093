/**
 * Layer builder (issue 5): build or import a CNN / ViT layer by layer and see where the memory
 * goes. Default export so the app can load it lazily (?view=layers); recharts loads in a further
 * chunk only when the charts render.
 */
import { lazy, Suspense } from 'react';
import { useLT } from './layers-i18n';
import { useNet, netStateOf } from './net-store';
import { useNetwork } from './use-network';
import { useNetUrl } from './use-net-url';
import { SettingsPanel } from './settings-panel';
import { GpuPanel } from './gpu-panel';
import { ImportPanel } from './import-panel';
import { SavedNetworksPanel } from './saved-panel';
import { AddLayer, SummaryPanel } from './summary-panel';
import { LayerTable } from './layer-table';
import './layers.css';

const LayerCharts = lazy(() => import('./layer-charts'));

export default function LayersView() {
  useNetUrl();
  const t = useLT();
  const store = useNet();
  const r = useNetwork(netStateOf(store));
  return (
    <div className="net-view">
      <h2 className="visually-hidden">{t('title')}</h2>
      <p className="muted net-intro">{t('intro')}</p>
      {store.ignored.length > 0 && (
        <div className="notice" role="status">
          <span>{t('err.ignored', { list: store.ignored.join(', ') })}</span>
          <button type="button" onClick={() => useNet.setState({ ignored: [] })}>
            {t('err.dismiss')}
          </button>
        </div>
      )}
      <div className="net-grid">
        <div>
          <SettingsPanel />
          <GpuPanel fits={r.fits} batch={store.batch} />
          <ImportPanel />
          <SavedNetworksPanel />
        </div>
        <div>
          <SummaryPanel r={r} />
          <Suspense fallback={<p className="chart-fallback">{t('chart.loading')}</p>}>
            <LayerCharts r={r} training={store.mode === 'training'} batch={store.batch} />
          </Suspense>
        </div>
      </div>
      <section className="panel" aria-labelledby="net-table-h">
        <h2 id="net-table-h">{t('table.title')}</h2>
        <p className="field-help">{t('table.caption')}</p>
        <LayerTable r={r} />
        <AddLayer r={r} />
      </section>
    </div>
  );
}
