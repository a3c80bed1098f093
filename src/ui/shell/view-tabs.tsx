import { useApp, VIEWS, type ViewId } from '../../state/store';
import { useT } from '../i18n';

/**
 * The top-level view switcher. Only the calculator is built; the others are placeholders so
 * new views slot in by adding a case in app.tsx and a label in the dictionaries.
 */
export function ViewTabs() {
  const t = useT();
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  return (
    <nav className="views" aria-label={t('view.label')}>
      <div role="tablist" aria-label={t('view.label')}>
        {VIEWS.map((v: ViewId) => (
          <button
            key={v}
            type="button"
            role="tab"
            id={`view-tab-${v}`}
            aria-controls="view-panel"
            aria-selected={view === v}
            tabIndex={view === v ? 0 : -1}
            onClick={() => setView(v)}
            onKeyDown={(e) => {
              const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
              if (!step) return;
              const next = VIEWS[(VIEWS.indexOf(v) + step + VIEWS.length) % VIEWS.length];
              setView(next);
              document.getElementById(`view-tab-${next}`)?.focus();
            }}
          >
            {t(`view.${v}`)}
          </button>
        ))}
      </div>
    </nav>
  );
}
