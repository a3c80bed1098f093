import { useId } from 'react';
import type { StepRecord } from '../../core/allocator/run';
import { useLabT, type LabKey, type LabT } from './lab-i18n';

export interface StepperProps {
  /** −1 = before the first event */
  step: number;
  total: number;
  /** the shown step's record (null before the first event) */
  rec: StepRecord | null;
  onStep: (step: number) => void;
}

/** One line describing a step's event and what happened. */
export function describeStep(t: LabT, r: StepRecord): string {
  const ev = t(`sim.event.${r.op}` as LabKey, { line: r.line, name: r.name ?? '', size: r.size === undefined ? '' : t.bytes(r.size) });
  const out = t(`sim.outcome.${r.outcome}` as LabKey);
  const block = r.outcome === 'ok' && r.blockSize !== undefined && r.op === 'alloc' ? ` (${t.bytes(r.blockSize)})` : '';
  return `${ev} → ${out}${block}`;
}

/** Step forward/back through the trace: buttons and a slider, all keyboard operable. */
export function Stepper({ step, total: n, rec, onStep }: StepperProps) {
  const t = useLabT();
  const id = useId();
  const last = n - 1;
  const go = (s: number) => onStep(Math.max(-1, Math.min(last, s)));
  const label = step < 0 ? t('sim.start') : t('sim.stepOf', { step: step + 1, total: n });
  return (
    <div className="lab-stepper" role="group" aria-label={t('sim.step')}>
      <div className="row">
        <button type="button" onClick={() => go(-1)} disabled={step <= -1} aria-label={t('sim.first')} title={t('sim.first')}>
          |◀
        </button>
        <button type="button" onClick={() => go(step - 1)} disabled={step <= -1} aria-label={t('sim.back')} title={t('sim.back')}>
          ◀ <span className="btn-text">{t('sim.back')}</span>
        </button>
        <button type="button" onClick={() => go(step + 1)} disabled={step >= last} aria-label={t('sim.forward')} title={t('sim.forward')}>
          <span className="btn-text">{t('sim.forward')}</span> ▶
        </button>
        <button type="button" onClick={() => go(last)} disabled={step >= last} aria-label={t('sim.last')} title={t('sim.last')}>
          ▶|
        </button>
        <input
          id={`${id}-slider`}
          className="lab-slider"
          type="range"
          min={-1}
          max={last}
          step={1}
          value={step}
          aria-label={t('sim.stepSlider')}
          aria-valuetext={label}
          onChange={(e) => go(Number(e.target.value))}
        />
      </div>
      <p className="lab-step-now" aria-live="polite">
        <strong>{label}</strong>
        {rec && <span className={`outcome-${rec.outcome}`}>: {describeStep(t, rec)}</span>}
        {rec?.note && <span className="muted small"> — {t.core(rec.note)}</span>}
      </p>
    </div>
  );
}
