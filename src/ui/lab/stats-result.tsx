import type { StatsReading } from '../../core/allocator/stats-dict';
import { AdviceList } from './advice-list';
import { ByteFigures } from './byte-figures';
import { useLabT } from './lab-i18n';

const BYTES = ['cachedFree', 'releasable'] as const;
const COUNTERS = [
  ['num_alloc_retries', 'numAllocRetries'],
  ['num_ooms', 'numOoms'],
  ['num_sync_all_streams', 'numSyncAllStreams'],
  ['num_device_alloc', 'numDeviceAlloc'],
  ['num_device_free', 'numDeviceFree'],
] as const;

/** A torch.cuda.memory_stats() reading: diagnosis, notes, advice, the figures and the counters. */
export function StatsResult({ r }: { r: StatsReading }) {
  const t = useLabT();
  const f = r.figures;
  const both = (now: number | null, peak: number | null) => `${now === null ? '—' : t.bytes(now)} / ${peak === null ? '—' : t.bytes(peak)}`;
  return (
    <div className="lab-result" aria-live="polite">
      <p>{t('stats.read', { form: r.form, entries: r.entries })}</p>
      {r.more && <p className="muted">{t('stats.more')}</p>}
      <section className="lab-diagnosis" aria-labelledby="stats-diag-h">
        <h3 id="stats-diag-h">{t('oom.diagnosis')}</h3>
        <p className="diag-text">{t.core(r.diagnosis)}</p>
        {r.notes.length > 0 && (
          <ul className="lab-notes">
            {r.notes.map((n) => (
              <li key={n.code}>{t.core(n)}</li>
            ))}
          </ul>
        )}
        {r.advice.length > 0 && <AdviceList advice={r.advice} prefix="summary-advice" />}
      </section>
      <h3>{t('sum.figures')}</h3>
      <dl className="lab-dl">
        <div>
          <dt>{t('stats.f.allocated')}</dt>
          <dd>{both(f.allocated, f.allocatedPeak)}</dd>
        </div>
        <div>
          <dt>{t('stats.f.reserved')}</dt>
          <dd>{both(f.reserved, f.reservedPeak)}</dd>
        </div>
        {f.nonReleasable !== null && (
          <div>
            <dt>{t('sum.f.nonReleasable')}</dt>
            <dd>
              <strong>{t.bytes(f.nonReleasable)}</strong>
              {f.reserved ? <span className="muted small"> ({t('stats.share', { pct: t.num((100 * f.nonReleasable) / f.reserved) })})</span> : null}
            </dd>
          </div>
        )}
        <ByteFigures keys={BYTES} values={f} />
        <div>
          <dt>{t('stats.f.maxSplit')}</dt>
          <dd>{f.maxSplitSize === null ? t('stats.unlimited') : t.bytes(f.maxSplitSize)}</dd>
        </div>
        {f.oversizeSegments !== null && (
          <div>
            <dt>{t('stats.f.oversize')}</dt>
            <dd>
              {t.num(f.oversizeAllocations ?? 0)} / {t.num(f.oversizeSegments)}
            </dd>
          </div>
        )}
      </dl>
      <h3>{t('stats.counters')}</h3>
      <dl className="lab-dl inline">
        {COUNTERS.map(([name, k]) => {
          const v = r.counters[k];
          return v === null ? null : (
            <div key={k}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd>{t.num(v)}</dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}
