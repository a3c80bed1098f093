import { useMemo } from 'react';
import { rooflineSpeed } from '../../core/deploy/speed';
import { resolveModel } from '../../core/estimate';
import type { Scenario } from '../../core/types';
import { useT } from '../i18n';
import { formatBound, formatShare } from '../i18n/format';
import type { Fit } from './fits';

/**
 * How fast at best on the verdict's GPU (core/deploy/speed.ts): roofline bounds, labelled so, with
 * their formulas in the tooltip. Only for catalogue GPUs (a typed capacity has no bandwidth).
 */
export default function SpeedLine({ s, f }: { s: Scenario; f: Fit }) {
  const t = useT();
  const speed = useMemo(() => {
    if (!f.est || f.gpu.category === 'custom') return null;
    const m = resolveModel(s);
    return m.ok ? rooflineSpeed(s, f.est, m.value.arch, f.gpu, s.mfu) : null;
  }, [s, f.est, f.gpu]);
  if (!speed) return null;
  const n = (v: number) => formatBound(v, t.lang);
  const { decodeTokensPerSecond: dec, prefillTokensPerSecond: pre, stepSeconds: step } = speed;
  const text = step
    ? t('verdict.speedTrain', { s: n(step.value), mfu: formatShare(s.mfu, t.lang) })
    : dec && pre
      ? t('verdict.speedInfer', { decode: n(dec.value), prefill: n(pre.value) })
      : dec
        ? t('verdict.speedDecode', { decode: n(dec.value) })
        : null;
  if (!text) return null;
  const title = [dec, pre, step]
    .filter((x) => x !== null)
    .map((x) => `${x.formula} — ${x.source}`)
    .join('\n');
  return (
    <p className="verdict-sub small muted" data-testid="verdict-speed" title={title}>
      {text}
    </p>
  );
}
