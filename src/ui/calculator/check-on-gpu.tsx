import type { Estimate, Scenario } from '../../core/types';
import { checkSnippet, mib, savesSnapshot, SNAPSHOT_FILE } from './check-snippet';
import { useT } from '../i18n';
import { formatNumber } from '../i18n/format';

export const NVIDIA_SMI = 'nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv -lms 500';

/** "Check it on your GPU": the snippet, the nvidia-smi command, and how to compare. */
export function CheckOnGpu({ s, est }: { s: Scenario; est: Estimate }) {
  const t = useT();
  return (
    <details className="panel">
      <summary>{t('check.title')}</summary>
      <p className="small">{t('check.intro', { mib: formatNumber(mib(est.deviceBytes), t.lang, 0) })}</p>
      <pre>{checkSnippet(s, est)}</pre>
      {savesSnapshot(s) && <p className="small">{t('check.snapshot', { file: SNAPSHOT_FILE })}</p>}
      <p className="small">{t('check.smi')}</p>
      <pre>{NVIDIA_SMI}</pre>
    </details>
  );
}
