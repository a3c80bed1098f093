import { Fragment } from 'react';
import { DIFFUSION_KEYS } from '../../core/diffusion/keys';
import { isDiffusionModel } from '../../core/diffusion/presets';
import { DEFAULT_SCENARIO, MODES } from '../../core/scenario/schema';
import type { Mode, Scenario } from '../../core/types';
import { selectActive, useApp } from '../../state/store';
import { tabKeyTarget } from '../forms/tab-keys';
import { useT } from '../i18n';
import { optionLabel } from '../i18n/scenario-labels';
import { preloadEstimator } from './estimator-loader';
import { useChange } from './fields';
import { ScenarioField } from './scenario-field';
import type { MessageKey } from '../i18n/en';

/** Inference / Training tabs holding every scenario option of that mode. */
export function ScenarioForm() {
  const t = useT();
  const mode = useApp((st) => selectActive(st).mode);
  const change = useChange();
  const pick = (m: Mode) => change({ mode: m });
  // the training estimator is a lazy chunk: start fetching it when the training tab is approached
  const preload = (m: Mode) => (m === 'training' ? () => preloadEstimator('training') : undefined);
  return (
    <section className="panel" aria-labelledby="scenario-h">
      <h2 id="scenario-h">{t('form.title')}</h2>
      <div role="tablist" className="tabs" aria-label={t('form.mode')}>
        {MODES.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`mode-tab-${m}`}
            aria-selected={mode === m}
            aria-controls="mode-panel"
            tabIndex={mode === m ? 0 : -1}
            onClick={() => pick(m)}
            onPointerEnter={preload(m)}
            onFocus={preload(m)}
            onKeyDown={(e) => {
              const to = tabKeyTarget(e.key, MODES.indexOf(m), MODES.length);
              if (to === null) return;
              e.preventDefault();
              pick(MODES[to]);
              document.getElementById(`mode-tab-${MODES[to]}`)?.focus();
            }}
          >
            {optionLabel(t.lang, 'mode', m)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="mode-panel" aria-labelledby={`mode-tab-${mode}`}>
        <ModeFields mode={mode} />
      </div>
    </section>
  );
}

type Prop = Exclude<keyof Scenario, 'arch'>;

/** A group of the form: its fields in order; `title` puts them under a disclosure, which starts open when the link sets one of them (`openWhenSet`). */
export interface FormGroup {
  title?: MessageKey;
  openWhenSet?: true;
  fields: readonly Prop[];
}

/**
 * Where each scenario key sits in each mode's form. The control, its label, range, slider and
 * disabled reasons come from the schema (src/core/scenario/schema.ts) and the rule table; a test
 * checks that every key the estimator reads in a mode is placed here (tests/ui/calculator/form-layout.test.ts).
 */
export const FORM_LAYOUT: Record<Mode, readonly FormGroup[]> = {
  inference: [
    { fields: ['engine', 'weights', 'kv', 'batch', 'prompt', 'gen', 'images', 'resolution', 'attn'] },
    { title: 'form.engineOptions', fields: ['gpuUtil', 'ngl', 'ubatch', 'bnbCompute', 'doubleQuant', 'groupSize', 'descAct', 'gptqKernel', 'kvResidual', 'logitsPath'] },
    { title: 'form.parallel', fields: ['gpus', 'tp', 'pp', 'split', 'tensorSplit'] },
  ],
  training: [
    { fields: ['method', 'weights', 'precision', 'optimizer', 'batch', 'seq', 'lengths', 'lenMean', 'lenSpread', 'allocConf', 'gradCkpt', 'attn', 'loraRank', 'loraTargets'] },
    { title: 'form.techniques', openWhenSet: true, fields: ['compile', 'lossChunks', 'optimStep', 'actOffload', 'optimImpl'] },
    {
      title: 'form.framework',
      openWhenSet: true,
      fields: ['gradAccum', 'gradZero', 'autocast', 'bnbCompute', 'bnbVersion', 'doubleQuant', 'groupSize', 'kbitPrep', 'adapterDtype', 'loraDropout', 'loraSave', 'logitsPath', 'mfu'],
    },
    { title: 'form.parallel', fields: ['gpus', 'zero', 'offload', 'tp', 'pp', 'split'] },
    { title: 'form.deepspeed', openWhenSet: true, fields: ['zeroImpl', 'dsReduceBucket', 'dsOverlapComm', 'dsPrefetchBucket', 'dsPersistThreshold', 'dsMaxLive', 'dsReuseDistance'] },
  ],
};

function useChanged(props: readonly Prop[]): boolean {
  return useApp((st) => {
    const s = selectActive(st);
    return props.some((p) => s[p] !== DEFAULT_SCENARIO[p]);
  });
}

/** The form of an image-generation pipeline: the keys its estimate reads (core/diffusion/keys.ts), less those set elsewhere. */
export const IMAGE_LAYOUT: readonly FormGroup[] = [{ fields: DIFFUSION_KEYS.filter((k): k is Prop => k !== 'model' && k !== 'mode' && k !== 'gpu' && k !== 'arch') }];

function ModeFields({ mode }: { mode: Mode }) {
  const t = useT();
  const image = useApp((st) => isDiffusionModel(selectActive(st).model));
  if (image && mode === 'training') {
    return (
      <p className="field-msg" role="note">
        {t('why.diffusion-inference-only')}
      </p>
    );
  }
  return (image ? IMAGE_LAYOUT : FORM_LAYOUT[mode]).map((g, i) =>
    g.title ? (
      <Group key={i} group={g} title={g.title} />
    ) : (
      <Fragment key={i}>
        {g.fields.map((p) => (
          <ScenarioField key={p} prop={p} />
        ))}
      </Fragment>
    ),
  );
}

function Group({ group, title }: { group: FormGroup; title: MessageKey }) {
  const t = useT();
  const changed = useChanged(group.openWhenSet ? group.fields : []);
  return (
    <details open={changed || undefined}>
      <summary>{t(title)}</summary>
      {group.fields.map((p) => (
        <ScenarioField key={p} prop={p} />
      ))}
    </details>
  );
}
