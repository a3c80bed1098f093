import { lazy, memo, Suspense, useId } from 'react';
import { GPUS } from '../../core/gpus';
import { selectActive, useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes, formatShare } from '../i18n/format';
import { CatalogueOptions } from './catalogue-options';
import { fitsOf, type Fit } from './fits';
import { gpuName, resolveAll } from './gpu-list';
import { useShownEstimate } from './use-replay';
import { estimatorLoading } from './estimator-loader';

// the roofline speed bounds (core/deploy/speed.ts) load after the verdict: they keep their formulas out of the first load
const SpeedLine = lazy(() => import('./verdict-speed'));

/**
 * The answer first: "Fits on GeForce RTX 4090: 16.1 of 24.0 GiB, 7.9 GiB to spare" in large type,
 * a capacity gauge, and the GPU it is judged against picked right beside it. The other chosen GPUs
 * follow in one line each. Sticks to the top of a phone's screen while the inputs scroll under it.
 */
export function Verdict() {
  const t = useT();
  const s = useApp(selectActive);
  // the headline's estimate (replayed once settled where the replay decides): every card is judged from it
  const r = useShownEstimate(s);
  const specs = useApp((st) => st.gpus);
  const unit = useApp((st) => st.unit);
  // the embedded widget shows the GPU choice only when its link lists `gpu` among its controls
  const gpuChoice = useApp((st) => !st.embed || st.controls.includes('gpu'));
  const b = (n: number) => formatBytes(n, unit, t.lang);
  const split = s.gpus > 1;
  const fits = r.ok ? fitsOf(s, resolveAll(specs), r.value) : [];
  const [main, ...others] = fits;
  const loading = estimatorLoading(r);
  return (
    <section className="panel verdict-panel" aria-labelledby="verdict-h" data-testid="verdict">
      <h2 id="verdict-h" className="visually-hidden">
        {t('verdict.title')}
      </h2>
      <div className="verdict-row">
        <div className="verdict" aria-live="polite">
          {loading ? (
            <p className="verdict-big">{t(loading)}</p>
          ) : !r.ok ? (
            <>
              <p className="verdict-big nofit">{t('verdict.cannot')}</p>
              <p className="verdict-sub">{t.core(r.errors[0])}</p>
            </>
          ) : main === undefined ? (
            <>
              <p className="verdict-big">{t(split ? 'verdict.needsPerGpu' : 'verdict.needs', { used: b(r.value.deviceBytes) })}</p>
              <p className="verdict-sub">{t('fit.pickGpu')}</p>
            </>
          ) : (
            <>
              <MainFit f={main} split={split} gpus={s.gpus} b={b} />
              <Suspense fallback={null}>
                <SpeedLine s={s} f={main} />
              </Suspense>
            </>
          )}
        </div>
        {gpuChoice && <GpuSelect />}
      </div>
      {others.length > 0 && (
        <ul className="fitlist small" aria-label={t('fit.title')}>
          {others.map((f) => (
            <li key={f.spec}>
              <span className={f.fits ? 'fits' : 'nofit'}>{f.fits ? '✓' : '✗'}</span> {gpuName(f)}:{' '}
              {f.est === null ? t('verdict.cannot') : f.fits ? t('fit.headroomOf', { used: b(f.est.deviceBytes), cap: b(f.gpu.capacityBytes), bytes: b(f.headroom) }) : shortText(t, f, b)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type Fmt = (n: number) => string;

function shortText(t: ReturnType<typeof useT>, f: Fit, b: Fmt): string {
  // vLLM: the device total can be under the capacity while its KV pool cannot hold the batch
  return f.headroom < 0 ? t('fit.short', { bytes: b(-f.headroom) }) : t('verdict.poolShort');
}

function MainFit({ f, split, gpus, b }: { f: Fit; split: boolean; gpus: number; b: Fmt }) {
  const t = useT();
  const used = f.est?.deviceBytes ?? 0;
  const cap = f.gpu.capacityBytes;
  const name = gpuName(f);
  const big = f.fits ? t('verdict.fits', { gpu: name }) : f.headroom < 0 ? t('verdict.short', { bytes: b(-f.headroom), gpu: name }) : t('verdict.noFit', { gpu: name });
  const of = t(split ? 'verdict.ofPerGpu' : 'verdict.of', { used: b(used), cap: b(cap), n: gpus });
  const tail = f.fits ? t('fit.headroom', { bytes: b(f.headroom) }) : f.headroom < 0 ? '' : t('verdict.poolShort');
  return (
    <>
      <p className={`verdict-big ${f.fits ? 'fits' : 'nofit'}`} data-testid="verdict-big">
        <span aria-hidden="true">{f.fits ? '✓ ' : '✗ '}</span>
        {big}
      </p>
      <p className="verdict-sub" data-testid="verdict-sub">
        {tail ? t('verdict.line', { of, rest: tail }) : of}
      </p>
      <Gauge used={used} cap={cap} fits={f.fits} label={t('verdict.gauge', { share: formatShare(used / cap, t.lang) })} />
    </>
  );
}

/** A bar filled to used / capacity; past the capacity it is full and its overflow is marked. */
function Gauge({ used, cap, fits, label }: { used: number; cap: number; fits: boolean; label: string }) {
  const share = cap > 0 ? used / cap : 0;
  const over = share > 1;
  return (
    <div className={`gauge${fits ? '' : ' over'}`} role="img" aria-label={label} data-testid="gauge">
      {/* scaled, not sized: a new share changes no layout */}
      <div className="gauge-fill" style={{ transform: `scaleX(${Math.min(1, Math.max(0, share))})` }} />
      {over && (
        <span className="gauge-over" aria-hidden="true">
          ▶
        </span>
      )}
    </div>
  );
}

/**
 * The GPU the verdict is judged against (the first chosen), chosen from the catalogue or none.
 * Memoised: a slider step re-renders the verdict, and a re-rendered <select> walks all its
 * options to re-apply its value.
 */
const GpuSelect = memo(function GpuSelect() {
  const t = useT();
  const id = useId();
  const specs = useApp((st) => st.gpus);
  const setGpus = useApp((st) => st.setGpus);
  const first = specs[0] ?? '';
  const chosen = resolveAll(first ? [first] : [])[0];
  const inCatalogue = GPUS.some((g) => g.id === first);
  // another GPU takes the first place (the rest of the compared ones stay); "no GPU" clears them all
  const pick = (spec: string) => setGpus(spec === '' ? [] : [spec, ...specs.filter((x) => x !== spec && x !== first)]);
  return (
    <div className="field verdict-gpu">
      <label htmlFor={id}>{t('verdict.gpu')}</label>
      <select id={id} value={first} onChange={(e) => pick(e.target.value)}>
        <option value="">{t('verdict.noGpu')}</option>
        {first !== '' && !inCatalogue && chosen && <option value={first}>{gpuName(chosen)}</option>}
        <CatalogueOptions />
      </select>
    </div>
  );
});
