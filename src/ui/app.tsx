import { Suspense, useEffect } from 'react';
import { useApp } from '../state/store';
import { useT } from './i18n';
import { Header } from './shell/header';
import { ViewTabs } from './shell/view-tabs';
import { Notices } from './shell/notices';
import { Calculator } from './calculator/calculator';
import { PanelBoundary } from './shell/panel-boundary';
import { lazyRetry } from './shell/lazy-retry';

// other views load on demand, so the calculator's first load stays small; a failed load retries on "Try again"
const LabView = lazyRetry(() => import('./lab/lab-view'));
const LayersView = lazyRetry(() => import('./layers/layers-view'));
const AccuracyView = lazyRetry(() => import('./accuracy/accuracy-view'));

/** Page composition: header and view tabs (hidden when embedded), notices, the chosen view. */
export function App() {
  const t = useT();
  const embed = useApp((s) => s.embed);
  const view = useApp((s) => s.view);
  useEffect(() => {
    document.documentElement.lang = t.lang === 'zh' ? 'zh-CN' : 'en';
    document.title = t('app.title');
  }, [t]);
  return (
    <div className={`app${embed ? ' embed' : ''}`}>
      {!embed && <Header />}
      {embed && <h1 className="visually-hidden">{t('app.title')}</h1>}
      {!embed && <ViewTabs />}
      <Notices />
      <main id="view-panel" role={embed ? undefined : 'tabpanel'} aria-labelledby={embed ? undefined : `view-tab-${view}`}>
        <PanelBoundary name={embed ? 'calculator' : view} key={embed ? 'calculator' : view}>
          {view === 'calculator' || embed ? (
            <Calculator />
          ) : (
            <Suspense fallback={<p className="panel">{t('chart.loading')}</p>}>{view === 'lab' ? <LabView /> : view === 'layers' ? <LayersView /> : <AccuracyView />}</Suspense>
          )}
        </PanelBoundary>
      </main>
      {!embed && <footer>{t('app.footer')}</footer>}
    </div>
  );
}
