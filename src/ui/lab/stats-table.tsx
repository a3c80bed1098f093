import { useState } from 'react';
import { ARRAY_STATS, OVERSIZE_STATS as SINGLE, SCALAR_STATS, STAT_FIELDS as FIELDS, STAT_POOLS as POOLS } from '../../core/allocator/stats';
import type { MemoryStatKey, MemoryStats } from '../../core/allocator/stats';
import { useLabT, type LabT } from './lab-i18n';

const isBytes = (key: string) => key.includes('_bytes') || key === 'max_split_size';

function cell(t: LabT, stats: MemoryStats, key: MemoryStatKey) {
  const v = stats[key];
  const shown = isBytes(key) && v >= 0 ? t.exact(v) : t.num(v);
  return (
    <td key={key} className="num" data-key={key} title={isBytes(key) && v >= 0 ? `${key} = ${t.bytes(v)}` : key}>
      {shown}
    </td>
  );
}

/** torch.cuda.memory_stats() at the shown step, under PyTorch's own key names, exact values. */
export function StatsTable({ stats }: { stats: MemoryStats }) {
  const t = useLabT();
  const [pools, setPools] = useState(false);
  const shownPools = pools ? POOLS : POOLS.slice(0, 1);
  return (
    <section className="panel" aria-labelledby="lab-stats-h">
      <h3 id="lab-stats-h">{t('stats.title')}</h3>
      <p className="field-help">{t('stats.help')}</p>
      <label className="small">
        <input type="checkbox" checked={pools} onChange={(e) => setPools(e.target.checked)} /> {t('stats.pools')}
      </label>
      <div className="table-wrap">
        <table className="lab-stats">
          <thead>
            <tr>
              <th scope="col">{t('stats.key')}</th>
              {FIELDS.map((f) => (
                <th key={f} scope="col" className="num">
                  .{f}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ARRAY_STATS.flatMap((name) =>
              shownPools.map((pool) => (
                <tr key={`${name}.${pool}`} className={pool === 'all' ? 'pool-all' : 'pool-sub'}>
                  <th scope="row">
                    <code>
                      {name}.{pool}
                    </code>
                  </th>
                  {FIELDS.map((f) => cell(t, stats, `${name}.${pool}.${f}`))}
                </tr>
              )),
            )}
            {SINGLE.map((name) => (
              <tr key={name} className="pool-all">
                <th scope="row">
                  <code>{name}</code>
                </th>
                {FIELDS.map((f) => cell(t, stats, `${name}.${f}`))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h4>{t('stats.scalars')}</h4>
      <table className="lab-stats scalars">
        <thead>
          <tr>
            <th scope="col">{t('stats.key')}</th>
            <th scope="col" className="num">
              {t('stats.value')}
            </th>
          </tr>
        </thead>
        <tbody>
          {SCALAR_STATS.map((k) => (
            <tr key={k}>
              <th scope="row">
                <code>{k}</code>
              </th>
              {cell(t, stats, k)}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
