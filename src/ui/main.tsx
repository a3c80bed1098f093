import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadSavedModels } from '../state/saved-models';
import { useApp } from '../state/store';
import { App } from './app';
import { reportHeight } from './shell/embed-height';
import { readUrl, syncUrl } from './shell/url-sync';
import './styles.css';

readUrl(location.search);
syncUrl();
if (useApp.getState().embed) reportHeight();
try {
  const { corrupt } = loadSavedModels(localStorage);
  if (corrupt.length > 0) useApp.getState().notify({ id: 'saved', key: 'notice.savedCorrupt', params: { name: corrupt.join(', ') } });
} catch {
  // storage blocked entirely (privacy mode): saved models are simply unavailable
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
