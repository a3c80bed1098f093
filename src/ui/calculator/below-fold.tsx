import type { Estimate, Result, Scenario } from '../../core/types';
import { useT } from '../i18n';
import { PanelBoundary as B } from '../shell/panel-boundary';
import { BreakdownTable } from './breakdown-table';
import { CheckOnGpu } from './check-on-gpu';
import { DerivationPanel } from './derivation-panel';
import { GpuCompare } from './gpu-compare';
import { MakeItFit } from './make-it-fit';
import { Primer } from './primer';
import { RuleOfThumbPanel } from './rule-of-thumb-panel';
import { SharePanel } from './share-panel';
import { SweepPanel } from './sweep-panel';
import { TimelinePanel } from './timeline-panel';
import { isDiffusionModel } from '../../core/diffusion/presets';

/**
 * The calculator's panels under the term chart, in a chunk of their own: the first screen (verdict,
 * totals, term chart) draws without their code, which is fetched while it paints. `r` is the settled
 * scenario's estimate (replayed where lengths vary).
 */
export default function BelowFold({ s, r }: { s: Scenario; r: Result<Estimate> }) {
  const t = useT();
  return (
    <>
      {r.ok && (
        <B name="breakdown">
          <section className="panel" aria-labelledby="breakdown-h">
            <h2 id="breakdown-h">{t('table.title')}</h2>
            <BreakdownTable est={r.value} />
          </section>
        </B>
      )}
      {r.ok && (
        <B name="rule-of-thumb">
          <RuleOfThumbPanel s={s} est={r.value} />
        </B>
      )}
      {r.ok && (
        <B name="derivation">
          <DerivationPanel est={r.value} />
        </B>
      )}
      {/* the replay follows a language model's allocations; an image pipeline's phases are not replayed */}
      {r.ok && !isDiffusionModel(s.model) && (
        <B name="timeline">
          <TimelinePanel s={s} />
        </B>
      )}
      {/* a scenario that cannot be estimated has no fit to improve, compare or sweep: the verdict says why */}
      {r.ok && (
        <B name="make-it-fit">
          <MakeItFit s={s} est={r.value} />
        </B>
      )}
      {r.ok && (
        <B name="gpu-compare">
          <GpuCompare s={s} est={r.value} />
        </B>
      )}
      {r.ok && (
        <B name="sweep">
          <SweepPanel s={s} est={r.value} />
        </B>
      )}
      <B name="share">
        <SharePanel s={s} />
      </B>
      {r.ok && (
        <B name="check-on-gpu">
          <CheckOnGpu s={s} est={r.value} />
        </B>
      )}
      <B name="primer">
        <Primer />
      </B>
    </>
  );
}
