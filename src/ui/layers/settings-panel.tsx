import { useEffect, useId, useState } from 'react';
import { NETWORK_PRESETS } from '../../core/layers/presets';
import { MAX_BATCH } from '../../core/layers/estimate';
import { OPTIMIZERS, PRECISIONS } from '../../core/scenario/schema';
import type { Mode, Optimizer, Precision } from '../../core/types';
import { NumberField } from '../forms/number-field';
import { SelectField } from '../forms/select-field';
import { optionLabel } from '../i18n/scenario-labels';
import { useLT } from './layers-i18n';
import { useNet } from './net-store';
import { parseShape, shapeText } from './net-url';

/** Largest input side the size slider offers (the box accepts up to 2^15). */
const SIZE_SLIDER_MAX = 1024;

/** Preset, input shape and size, batch, mode, precision, optimizer, checkpointing. */
export function SettingsPanel() {
  const t = useLT();
  const id = useId();
  const s = useNet();
  const [draft, setDraft] = useState(shapeText(s.input));
  useEffect(() => {
    if (shapeText(parseShape(draft) ?? []) !== shapeText(s.input)) setDraft(shapeText(s.input));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only outside changes of the shape replace what is being typed
  }, [s.input]);
  const bad = parseShape(draft) === null;
  const side = s.input[s.input.length - 1];
  const spatial = s.input.length >= 2 ? Math.min(2, s.input.length - 1) : 1;
  const setSize = (v: number) => s.update({ input: [...s.input.slice(0, s.input.length - spatial), ...Array<number>(spatial).fill(v)] });
  const training = s.mode === 'training';
  const presets = [...NETWORK_PRESETS.map((p) => ({ value: p.id, label: p.label })), ...(s.preset === 'custom' ? [{ value: 'custom', label: t('set.custom') }] : [])];
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('set.title')}</h2>
      <SelectField label={t('set.preset')} value={s.preset} options={presets} onChange={(v) => s.choosePreset(v)} />
      <div className={`field${bad ? ' invalid' : ''}`}>
        <label htmlFor={`${id}-in`}>{t('set.input')}</label>
        <input
          id={`${id}-in`}
          type="text"
          value={draft}
          spellCheck={false}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? `${id}-inerr` : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            const shape = parseShape(e.target.value);
            if (shape) s.update({ input: shape });
          }}
        />
        {bad && (
          <p id={`${id}-inerr`} className="field-msg" role="alert">
            {t('set.inputBad')}
          </p>
        )}
      </div>
      <NumberField label={t('set.size')} value={side} min={1} max={32768} sliderMin={8} sliderMax={SIZE_SLIDER_MAX} log integer help={t('set.sizeHelp')} onChange={setSize} />
      <NumberField label={t('set.batch')} value={s.batch} min={1} max={MAX_BATCH} sliderMax={4096} log integer onChange={(batch) => s.update({ batch })} />
      <SelectField<Mode>
        label={t('set.mode')}
        value={s.mode}
        options={[
          { value: 'training', label: t('mode.training') },
          { value: 'inference', label: t('mode.inference') },
        ]}
        onChange={(mode) => s.update({ mode })}
      />
      <SelectField<Precision>
        label={t('set.precision')}
        value={s.precision}
        options={PRECISIONS.map((v) => ({ value: v, label: optionLabel(t.lang, 'precision', v) }))}
        onChange={(precision) => s.update({ precision })}
      />
      <SelectField<Optimizer>
        label={t('set.optimizer')}
        value={s.optimizer}
        disabled={!training}
        disabledReason={t('set.trainingOnly')}
        options={OPTIMIZERS.map((v) => ({ value: v, label: optionLabel(t.lang, 'optimizer', v) }))}
        onChange={(optimizer) => s.update({ optimizer })}
      />
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={s.ckpt} disabled={!training} onChange={(e) => s.update({ ckpt: e.target.checked })} /> {t('set.ckpt')}
        </label>
        {!training && <p className="field-why">{t('set.trainingOnly')}</p>}
      </div>
    </section>
  );
}
