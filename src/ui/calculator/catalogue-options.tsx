import { useMemo } from 'react';
import { GPUS } from '../../core/gpus';
import { useT } from '../i18n';
import { markText } from './fit-mark';
import { useFitMarks } from './use-fit-marks';

const CATEGORIES = [...new Set(GPUS.map((g) => String(g.category)))];

/**
 * The GPU catalogue as <option>s grouped by class, for the verdict's and the picker's selects,
 * each with its fit mark for the active scenario in words, first ("✓ fits — GeForce RTX 4090 —
 * 24 GB"): a closed select on a phone cuts its text at the right edge, so the end to lose is the
 * card's name (which the verdict and the line under the picker give in full), never the answer.
 * The text is also the option's accessible name. Marks follow the scenario once it settles.
 */
export function CatalogueOptions() {
  const t = useT();
  const marks = useFitMarks();
  // the same elements until the marks change: a dragged slider re-renders this, not its options
  return useMemo(
    () => (
      <>
        {CATEGORIES.map((c) => (
          <optgroup key={c} label={c}>
            {GPUS.filter((g) => g.category === c).map((g) => {
              const m = marks?.byId.get(g.id);
              return (
                <option key={g.id} value={g.id}>
                  {`${m ? `${markText(t, m.mark)} — ` : ''}${g.name} — ${g.memoryStated}`}
                </option>
              );
            })}
          </optgroup>
        ))}
      </>
    ),
    [marks, t],
  );
}
