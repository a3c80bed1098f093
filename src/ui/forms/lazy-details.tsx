import { Suspense, useState, type ReactNode } from 'react';
import { useT } from '../i18n';
import { PanelBoundary } from '../shell/panel-boundary';

interface Props {
  /** names the body in the error boundary's message, for bug reports */
  name: string;
  summary: ReactNode;
  className?: string;
  /** rendered from the first open on; typically a React.lazy component, so its code is fetched then */
  children: ReactNode;
}

/**
 * A closed <details> whose body is rendered only once it is first opened, so a body kept in a lazy
 * chunk is not part of the page's first load. The summary is the native one (keyboard and screen
 * readers as usual). Once opened, the body stays mounted, so closing and reopening keeps what was
 * typed. While the chunk downloads the box says so; a failed download offers "Try again" in the box.
 */
export function LazyDetails({ name, summary, className, children }: Props) {
  const t = useT();
  const [opened, setOpened] = useState(false);
  return (
    <details className={className} onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>{summary}</summary>
      {opened && (
        <PanelBoundary name={name}>
          <Suspense fallback={<p className="small muted">{t('app.loading')}</p>}>{children}</Suspense>
        </PanelBoundary>
      )}
    </details>
  );
}
