import { DEFAULT_SCENARIO, MODES } from '../../core/scenario/schema';
import type { Mode, Scenario } from '../../core/types';
import { selectActive, useApp } from '../../state/store';
import { tabKeyTarget } from '../forms/tab-keys';
import { useT } from '../i18n';
import { optionLabel } from '../i18n/scenario-labels';
import { LoraTargets, ScenarioNumber, ScenarioSelect, useChange } from './fields';
import { TensorSplitField } from './tensor-split-field';

/** Inference / Training tabs holding every scenario option of that mode. */
export function ScenarioForm() {
  const t = useT();
  const mode = useApp((st) => selectActive(st).mode);
  const change = useChange();
  const pick = (m: Mode) => change({ mode: m });
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
        {mode === 'inference' ? <InferenceFields /> : <TrainingFields />}
      </div>
    </section>
  );
}

function InferenceFields() {
  const t = useT();
  return (
    <>
      <ScenarioSelect prop="engine" />
      <ScenarioSelect prop="weights" />
      <ScenarioSelect prop="kv" />
      <ScenarioNumber prop="batch" log sliderMax={1024} />
      <ScenarioNumber prop="prompt" log sliderMax={1 << 20} />
      <ScenarioNumber prop="gen" log sliderMax={1 << 17} />
      <ScenarioSelect prop="attn" />
      <details>
        <summary>{t('form.engineOptions')}</summary>
        <ScenarioNumber prop="gpuUtil" />
        <ScenarioNumber prop="ngl" sliderMax={200} />
        <ScenarioNumber prop="ubatch" log sliderMax={1 << 16} />
        <ScenarioSelect prop="bnbCompute" />
        <ScenarioSelect prop="doubleQuant" />
        <ScenarioNumber prop="groupSize" log sliderMax={1024} />
        <ScenarioSelect prop="logitsPath" />
      </details>
      <details>
        <summary>{t('form.parallel')}</summary>
        <ScenarioNumber prop="gpus" log sliderMax={1024} />
        <ScenarioNumber prop="tp" log sliderMax={64} />
        <ScenarioNumber prop="pp" log sliderMax={64} />
        <ScenarioSelect prop="split" />
        <TensorSplitField />
      </details>
    </>
  );
}

/** Training keys grouped under a disclosure; it starts open when the link already sets one of them. */
const TECHNIQUES = ['compile', 'lossChunks', 'optimStep', 'actOffload', 'optimImpl'] as const;
const FRAMEWORK = ['gradAccum', 'gradZero', 'autocast', 'bnbCompute', 'doubleQuant', 'groupSize', 'kbitPrep', 'adapterDtype', 'loraDropout', 'loraSave', 'logitsPath', 'mfu'] as const;
const DEEPSPEED = ['zeroImpl', 'dsReduceBucket', 'dsOverlapComm', 'dsPrefetchBucket', 'dsPersistThreshold', 'dsMaxLive', 'dsReuseDistance'] as const;

function useChanged(props: readonly (keyof Scenario)[]): boolean {
  return useApp((st) => {
    const s = selectActive(st);
    return props.some((p) => s[p] !== DEFAULT_SCENARIO[p]);
  });
}

function TrainingFields() {
  const t = useT();
  const techniques = useChanged(TECHNIQUES);
  const framework = useChanged(FRAMEWORK);
  const deepspeed = useChanged(DEEPSPEED);
  return (
    <>
      <ScenarioSelect prop="method" />
      <ScenarioSelect prop="weights" />
      <ScenarioSelect prop="precision" />
      <ScenarioSelect prop="optimizer" />
      <ScenarioNumber prop="batch" log sliderMax={1024} />
      <ScenarioNumber prop="seq" log sliderMax={1 << 20} />
      <ScenarioSelect prop="lengths" />
      <ScenarioNumber prop="lenMean" log sliderMax={1 << 20} />
      <ScenarioNumber prop="lenSpread" />
      <ScenarioSelect prop="allocConf" />
      <ScenarioSelect prop="gradCkpt" />
      <ScenarioSelect prop="attn" />
      <ScenarioNumber prop="loraRank" log sliderMax={1024} />
      <LoraTargets />
      <details open={techniques || undefined}>
        <summary>{t('form.techniques')}</summary>
        <ScenarioSelect prop="compile" />
        <ScenarioNumber prop="lossChunks" log sliderMax={64} />
        <ScenarioSelect prop="optimStep" />
        <ScenarioSelect prop="actOffload" />
        <ScenarioSelect prop="optimImpl" />
      </details>
      <details open={framework || undefined}>
        <summary>{t('form.framework')}</summary>
        <ScenarioNumber prop="gradAccum" log sliderMax={256} />
        <ScenarioSelect prop="gradZero" />
        <ScenarioSelect prop="autocast" />
        <ScenarioSelect prop="bnbCompute" />
        <ScenarioSelect prop="doubleQuant" />
        <ScenarioNumber prop="groupSize" log sliderMax={1024} />
        <ScenarioSelect prop="kbitPrep" />
        <ScenarioSelect prop="adapterDtype" />
        <ScenarioNumber prop="loraDropout" />
        <ScenarioSelect prop="loraSave" />
        <ScenarioSelect prop="logitsPath" />
        <ScenarioNumber prop="mfu" />
      </details>
      <details>
        <summary>{t('form.parallel')}</summary>
        <ScenarioNumber prop="gpus" log sliderMax={1024} />
        <ScenarioSelect prop="zero" />
        <ScenarioSelect prop="offload" />
        <ScenarioNumber prop="tp" log sliderMax={64} />
        <ScenarioNumber prop="pp" log sliderMax={64} />
        <ScenarioSelect prop="split" />
      </details>
      <details open={deepspeed || undefined}>
        <summary>{t('form.deepspeed')}</summary>
        <ScenarioSelect prop="zeroImpl" />
        <ScenarioNumber prop="dsReduceBucket" log sliderMax={1e9} />
        <ScenarioSelect prop="dsOverlapComm" />
        <ScenarioNumber prop="dsPrefetchBucket" log sliderMax={1e9} />
        <ScenarioNumber prop="dsPersistThreshold" log sliderMax={1e7} />
        <ScenarioNumber prop="dsMaxLive" log sliderMax={1e10} />
        <ScenarioNumber prop="dsReuseDistance" log sliderMax={1e10} />
      </details>
    </>
  );
}
