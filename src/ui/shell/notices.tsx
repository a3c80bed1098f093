import { useApp } from '../../state/store';
import { useT } from '../i18n';

/** Page-level notices (ignored URL settings, unreadable saved models), dismissible. */
export function Notices() {
  const t = useT();
  const notices = useApp((s) => s.notices);
  const dismiss = useApp((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status">
      {notices.map((n) => (
        <div className="notice" key={n.id}>
          <span>{t(n.key, n.params)}</span>
          <button type="button" onClick={() => dismiss(n.id)}>
            {t('notice.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
