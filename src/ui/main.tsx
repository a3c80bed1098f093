import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browserStorage } from '../state/storage/browser-storage';
import { loadSavedModels, MODELS_STORE } from '../state/storage/models';
import { useApp } from '../state/store';
import { App } from './app';
import { namesText } from './forms/saved-list';
import { loadZh } from './i18n/zh-loader';
import { loadEstimator, neededEstimators } from './calculator/estimator-loader';
import { reportHeight } from './shell/embed-height';
import { registerOffline } from './shell/offline';
import { followTheme } from './shell/theme';
import { notifyUrl, readUrl, syncUrl } from './shell/url-sync';
import './styles.css';

const opened = location.search;
readUrl(opened);
syncUrl();
followTheme();
if (useApp.getState().embed) reportHeight();
void registerOffline();
// the arch editor (where saved models are listed) starts closed, so unreadable ones are named up here too
const storage = browserStorage();
// a sandboxed frame (sandbox="allow-scripts" without allow-same-origin) or a locked-down browser: no saved data
if (storage === null && !useApp.getState().embed) useApp.getState().notify({ id: 'storage', key: 'notice.noStorage' });
const saved = loadSavedModels(storage);
const unread = saved.state === 'unreadable' ? [MODELS_STORE.key] : saved.bad;
if (unread.length > 0) useApp.getState().notify({ id: 'saved', key: 'notice.savedCorrupt', params: { name: namesText(unread) } });

// a page that opens in Chinese waits for its tables (a lazy chunk), so its first paint is Chinese;
// if they cannot be fetched (offline before the worker has them) it opens in English
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// a link to an image model or a training scenario waits for that estimator (a lazy chunk) too, so its first paint
// has the number (not fetched: the page opens with the loading note, and the estimate asks again)
const needed = neededEstimators();
const estimator = needed.length > 0 ? Promise.all(needed.map((p) => loadEstimator(p).catch(() => undefined))) : undefined;
if (useApp.getState().lang === 'zh')
  void Promise.all([loadZh(), estimator]).then(() => {
    notifyUrl(opened, 'zh');
    render();
  }, render);
else if (estimator) void estimator.then(render);
else render();
