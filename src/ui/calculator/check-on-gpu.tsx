import type { Estimate, Scenario } from '../../core/types';
import { useT } from '../i18n';
import { formatNumber } from '../i18n/format';

const MIB = 2 ** 20;

/** Python that measures the same three totals on a real GPU, for the current scenario. */
export function checkSnippet(s: Scenario, est: Estimate): string {
  const mib = (b: number) => Math.round(b / MIB);
  const model = s.model && s.model !== 'custom' ? s.model : '<your-model>';
  const tokens = s.mode === 'training' ? `seq=${s.seq}` : `prompt=${s.prompt}, gen=${s.gen}`;
  return [
    'import torch',
    `# ${model}: mode=${s.mode}, batch=${s.batch}, ${tokens}, weights=${s.weights}`,
    'torch.cuda.reset_peak_memory_stats()',
    '# ... load the model and run one step / one generate() here ...',
    'torch.cuda.synchronize()',
    `print("allocated MiB", torch.cuda.max_memory_allocated() / 2**20)  # estimate: ${mib(est.allocatedBytes)}`,
    `print("reserved  MiB", torch.cuda.max_memory_reserved() / 2**20)   # estimate: ${mib(est.reservedBytes)}`,
    `# device total (nvidia-smi, MiB) estimate: ${mib(est.deviceBytes)}`,
  ].join('\n');
}

export const NVIDIA_SMI = 'nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv -lms 500';

/** "Check it on your GPU": the snippet, the nvidia-smi command, and how to compare. */
export function CheckOnGpu({ s, est }: { s: Scenario; est: Estimate }) {
  const t = useT();
  return (
    <details className="panel">
      <summary>{t('check.title')}</summary>
      <p className="small">{t('check.intro', { mib: formatNumber(Math.round(est.deviceBytes / MIB), t.lang, 0) })}</p>
      <pre>{checkSnippet(s, est)}</pre>
      <p className="small">{t('check.smi')}</p>
      <pre>{NVIDIA_SMI}</pre>
    </details>
  );
}
