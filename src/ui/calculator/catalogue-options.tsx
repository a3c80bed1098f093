import { GPUS } from '../../core/gpus';

const CATEGORIES = [...new Set(GPUS.map((g) => String(g.category)))];

/** The GPU catalogue as <option>s grouped by class, for the verdict's and the picker's selects. */
export function CatalogueOptions() {
  return (
    <>
      {CATEGORIES.map((c) => (
        <optgroup key={c} label={c}>
          {GPUS.filter((g) => g.category === c).map((g) => (
            <option key={g.id} value={g.id}>
              {g.name} — {g.memoryStated}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
