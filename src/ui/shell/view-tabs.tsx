import { useApp, VIEWS, type ViewId } from '../../state/store';
import { tabKeyTarget } from '../forms/tab-keys';
import { useT } from '../i18n';

/** The top-level view switcher; a new view slots in with a case in app.tsx and a label in the dictionaries. */
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
              const to = tabKeyTarget(e.key, VIEWS.indexOf(v), VIEWS.length);
              if (to === null) return;
              e.preventDefault();
              const next = VIEWS[to];
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
