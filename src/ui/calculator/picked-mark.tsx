import { FitMark } from './fit-mark';
import { useFitMarks } from './use-fit-marks';

/**
 * The mark of the card picked in the catalogue select, in full under it (a closed select cuts its
 * option's text short on a narrow column; the options themselves carry the marks for screen readers).
 */
export function PickedMark({ id }: { id: string }) {
  const marks = useFitMarks();
  const m = marks?.byId.get(id);
  if (!m) return null;
  return (
    <p className="field-help" data-testid="picked-mark" aria-hidden="true">
      {m.name}: <FitMark mark={m.mark} />
    </p>
  );
}
