/**
 * Named custom GPUs kept in the browser (src/state/storage/gpus.ts): save the capacity typed in
 * the GPU picker under a name (with an optional bandwidth), pick it again after a reload.
 */
import { useId, useState } from 'react';
import { browserStorage } from '../../state/storage/browser-storage';
import { capacitySpec, deleteGpu, GPUS_STORE, loadSavedGpus, MAX_BANDWIDTH_GBS, saveGpu, type SavedGpu } from '../../state/storage/gpus';
import { backupKeys, type Loaded } from '../../state/storage/versioned-store';
import { useApp } from '../../state/store';
import { SavedList } from '../forms/saved-list';
import { useT } from '../i18n';
import { formatBytes, formatNumber } from '../i18n/format';

/** What the picker reads (stable, for useLoaded). */
export const readSavedGpus = () => loadSavedGpus(browserStorage());

/** The saved name of a custom device of this capacity, if any (first by name). */
export function savedGpuName(saved: Loaded<SavedGpu>, capacityBytes: number): string | undefined {
  return saved.items.find((i) => i.value.capacityBytes === capacityBytes)?.name;
}

interface Props {
  saved: Loaded<SavedGpu>;
  refresh: () => void;
  /** the custom capacity typed in the picker ('24gib'), null when it does not parse */
  capacity: string | null;
  /** add a capacity spec to the compared GPUs */
  onPick: (spec: string) => void;
}

export function SavedGpus({ saved, refresh, capacity, onPick }: Props) {
  const t = useT();
  const id = useId();
  const unit = useApp((s) => s.unit);
  const [bw, setBw] = useState('');
  const bwValue = bw.trim() === '' ? undefined : Number(bw);
  const bwBad = bwValue !== undefined && !(bwValue > 0 && bwValue <= MAX_BANDWIDTH_GBS);
  const detail = (g: SavedGpu) => formatBytes(g.capacityBytes, unit, t.lang) + (g.bandwidthGBs === undefined ? '' : `, ${formatNumber(g.bandwidthGBs, t.lang)} GB/s`);
  return (
    <SavedList
      loaded={saved}
      refresh={refresh}
      backupKey={backupKeys(GPUS_STORE.key)[0]}
      canSave={capacity !== null && !bwBad}
      labels={{ title: t('savedGpu.title'), name: t('savedGpu.name'), save: t('savedGpu.save') }}
      help={t('savedGpu.help')}
      openLabel={t('savedGpu.open')}
      onSave={(name) => (capacity === null ? 'invalid' : saveGpu(browserStorage(), name, capacity, bwValue))}
      onDelete={(name) => deleteGpu(browserStorage(), name)}
      onLoad={(_, g) => onPick(capacitySpec(g.capacityBytes))}
      detail={detail}
    >
      <div className="field">
        <label htmlFor={id}>{t('savedGpu.bandwidth')}</label>
        <input id={id} type="text" inputMode="decimal" value={bw} aria-invalid={bwBad || undefined} aria-describedby={bwBad ? `${id}-err` : undefined} onChange={(e) => setBw(e.target.value)} />
        {bwBad && (
          <p id={`${id}-err`} className="field-msg" role="alert">
            {t('savedGpu.badBandwidth')}
          </p>
        )}
      </div>
    </SavedList>
  );
}
