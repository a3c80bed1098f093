import { useId } from 'react';
import { useApp } from '../../state/store';
import { URL_LIMITS } from '../../state/url-query';
import { useT } from '../i18n';
import { formatBytes } from '../i18n/format';
import { FitMark } from './fit-mark';
import { useFitMarks } from './use-fit-marks';
/**
 * The cheapest kind of catalogue card that fits the active scenario, with one click to judge the
 * verdict against it. The catalogue has no prices, so "cheapest" is the core's ranking
 * (core/deploy/recommend.ts): consumer, then workstation, then datacenter cards, the smallest
 * memory first within each; the note under it says so.
 */
export function CheapestCard() {
  const t = useT();
  const id = useId();
  const marks = useFitMarks();
  const specs = useApp((st) => st.gpus);
  const unit = useApp((st) => st.unit);
  const setGpus = useApp((st) => st.setGpus);
  if (!marks) return null;
  const best = marks.ranked.find((r) => r.fits);
  if (!best) {
    const fewest = marks.ranked.find((r) => r.count !== null);
    return (
      <p className="cheapest small" data-testid="cheapest">
        {fewest ? t('cheap.noneFewest', { n: fewest.count ?? 0, gpu: fewest.name }) : t('cheap.none')}
      </p>
    );
  }
  const inUse = specs[0] === best.id;
  // the card's name in bold where the sentence places it
  const [before, after = ''] = t('cheap.label').split('{gpu}');
  // the card becomes the first chosen (the verdict's); the others stay, within the link's limit
  const use = () => setGpus([best.id, ...specs.filter((x) => x !== best.id)].slice(0, URL_LIMITS.compare));
  return (
    <div className="cheapest" data-testid="cheapest">
      <p>
        <span id={`${id}-what`}>
          {before}
          <strong>{best.name}</strong>
          {after} ({formatBytes(best.capacityBytes, unit, t.lang)}) <FitMark mark={best.mark} />
        </span>{' '}
        <button type="button" onClick={use} disabled={inUse} aria-describedby={`${id}-what`}>
          {inUse ? t('cheap.inUse') : t('cheap.use')}
        </button>
      </p>
      <p className="field-help">{t('cheap.basis')}</p>
    </div>
  );
}
