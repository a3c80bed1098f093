import { useApp, type ByteUnit, type Lang } from '../../state/store';
import { useT } from '../i18n';
import { rememberLang } from './lang-pref';

const LANGS: { id: Lang; name: string }[] = [
  { id: 'en', name: 'English' },
  { id: 'zh', name: '简体中文' },
];
const UNITS: ByteUnit[] = ['GiB', 'GB'];

/** Title, language switch and GiB/GB toggle. Hidden in embed mode. */
export function Header() {
  const t = useT();
  const unit = useApp((s) => s.unit);
  const setLang = useApp((s) => s.setLang);
  const setUnit = useApp((s) => s.setUnit);
  return (
    <header className="top">
      <h1>{t('app.title')}</h1>
      <p className="tagline">{t('app.tagline')}</p>
      <div className="settings">
        <div className="seg" role="group" aria-label={t('lang.label')}>
          {LANGS.map((l) => (
            <button
              key={l.id}
              type="button"
              lang={l.id === 'zh' ? 'zh-CN' : 'en'}
              aria-pressed={t.lang === l.id}
              onClick={() => {
                setLang(l.id);
                rememberLang(l.id);
              }}
            >
              {l.name}
            </button>
          ))}
        </div>
        <UnitToggle unit={unit} onChange={setUnit} label={t('unit.label')} titles={{ GiB: t('unit.GiB'), GB: t('unit.GB') }} />
      </div>
    </header>
  );
}

function UnitToggle(p: { unit: ByteUnit; onChange: (u: ByteUnit) => void; label: string; titles: Record<ByteUnit, string> }) {
  return (
    <div className="seg" role="group" aria-label={p.label}>
      {UNITS.map((u) => (
        <button key={u} type="button" aria-pressed={p.unit === u} title={p.titles[u]} onClick={() => p.onChange(u)}>
          {u}
        </button>
      ))}
    </div>
  );
}
