import { useLabT, type LabKey } from './lab-i18n';

/** Rows of a figures list: each byte figure that is known, labelled `sum.f.<key>`, short and exact. */
export function ByteFigures<K extends string>({ keys, values }: { keys: readonly K[]; values: Readonly<Record<K, number | null>> }) {
  const t = useLabT();
  return keys.map((k) => {
    const v = values[k];
    return v === null ? null : (
      <div key={k}>
        <dt>{t(`sum.f.${k}` as LabKey)}</dt>
        <dd>
          <strong>{t.bytes(v)}</strong> <span className="muted small">({t.exact(v)})</span>
        </dd>
      </div>
    );
  });
}
