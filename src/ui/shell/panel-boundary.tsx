import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useApp } from '../../state/store';
import { retryFailedLoads } from './lazy-retry';

/**
 * Error boundary for one panel: a bug in a view shows a message in that panel and leaves the
 * rest of the page (and the URL) working. Its own two-language text, so it needs nothing that
 * might itself be broken.
 */
const TEXT = {
  en: {
    title: 'This panel hit a bug and stopped.',
    body: 'The rest of the page still works and your link is unchanged.',
    retry: 'Try again',
    offline: 'This panel could not be downloaded: the connection may be down. Your link is unchanged; try again once you are online.',
  },
  zh: {
    title: '此面板出错，已停止显示。',
    body: '页面其余部分仍可使用，链接未改变。',
    retry: '重试',
    offline: '此面板无法下载，可能是网络已断开。链接未改变；恢复联网后请重试。',
  },
} as const;

/**
 * A code chunk that did not arrive, in the wording of Chromium ("Failed to fetch dynamically
 * imported module"), Firefox ("error loading dynamically imported module"), Safari ("Importing a
 * module script failed") and Vite's CSS preloader ("Unable to preload CSS").
 */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|Unable to preload CSS/;

interface Props {
  /** names the panel in the message, for bug reports */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept for bug reports; console.warn, not error, so one panel's bug is not reported twice.
    console.warn(`[${this.props.name}]`, error.message, info.componentStack?.split('\n')[1]?.trim() ?? '');
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <PanelError
        name={this.props.name}
        message={this.state.error.message}
        onRetry={() => {
          retryFailedLoads();
          this.setState({ error: null });
        }}
      />
    );
  }
}

function PanelError({ name, message, onRetry }: { name: string; message: string; onRetry: () => void }) {
  const lang = useApp((s) => s.lang);
  const t = TEXT[lang === 'zh' ? 'zh' : 'en'];
  return (
    <div className="panel panel-error" role="alert" data-panel={name}>
      {CHUNK_FAILED.test(message) ? (
        <p>
          <strong>{t.offline}</strong>
        </p>
      ) : (
        <p>
          <strong>{t.title}</strong> {t.body}
        </p>
      )}
      <p>
        <code>
          {name}: {message.slice(0, 200)}
        </code>
      </p>
      <button type="button" onClick={onRetry}>
        {t.retry}
      </button>
    </div>
  );
}
