/**
 * Which card to buy or rent: the whole GPU catalogue ranked for one scenario. Each card gets the
 * fit verdict the page and CLI use (solve.ts fitsWithin) with its mark (fit-mark.ts: fits, tight
 * or no), its headroom, and how many such cards the scenario needs under its own parallel strategy
 * (solve.ts minGpusBy: ZeRO adds data-parallel ranks, vLLM raises tp, other runs split layers).
 *
 * The catalogue has no prices, so "cheapest kind that fits" is ranked by class, then capacity:
 * consumer < workstation < datacenter cards, and within a class the smaller card (a proxy for the
 * price, which rises with memory within a class). Apple silicon and TPUs are listed but never
 * ranked first: the estimate models PyTorch on CUDA.
 */
import { GPUS } from '../gpus';
import type { Gpu, GpuCategory } from '../gpu-types';
import { estimate } from '../estimate';
import { fitsWithin, sizesToCard } from '../fit-rule';
import { minGpusBy, withPlan, type GpuPlan } from '../solve';
import { fitMark, type FitMark } from './fit-mark';
import type { Estimate, Result, Scenario } from '../types';

export interface Recommendation {
  id: string;
  name: string;
  category: GpuCategory;
  capacityBytes: number;
  /** one card holds the scenario as given */
  fits: boolean;
  /** fits, tight (fits, but not at the upper end of the error band) or no */
  mark: FitMark;
  /** capacity − device total on one card (negative: short by) */
  headroomBytes: number;
  /** cards needed under the scenario's strategy; null when none up to 4096 do */
  count: number | null;
}

const CLASS_RANK: Record<GpuCategory, number> = { consumer: 0, workstation: 1, datacenter: 2, 'apple-silicon': 3, tpu: 4, custom: 5 };

/** Rank cheapest-kind first: fitting cards by class then capacity, then the rest by cards needed. */
function compare(a: Recommendation, b: Recommendation): number {
  if (a.fits !== b.fits) return a.fits ? -1 : 1;
  if (!a.fits && a.count !== b.count) return (a.count ?? Infinity) - (b.count ?? Infinity);
  return CLASS_RANK[a.category] - CLASS_RANK[b.category] || a.capacityBytes - b.capacityBytes || a.id.localeCompare(b.id);
}

/**
 * Rank `gpus` (default: the catalogue) for `s`; `high` is the factor the memory may reach (the
 * upper end of the estimate's error band; 1: nothing is marked tight). Only vLLM sizes its memory
 * to the card, so every other scenario is estimated once per parallel plan and shared across cards.
 * `given`: the estimate of `s` as it stands that the caller judges fit from (the page's headline,
 * the CLI's verdict: estimateWithReplay where the replay decides reserved memory); every card is
 * marked from it, so no mark can disagree with that verdict. Other plans (more cards) use estimate().
 */
export function recommend(s: Scenario, gpus: readonly Gpu[] = GPUS, high = 1, given?: Estimate): Result<Recommendation[]> {
  const perCard = sizesToCard(s);
  const shared = new Map<number, Result<Estimate>>();
  if (given && !perCard) shared.set(s.gpus, { ok: true, value: given });
  const estimateFor = (p: GpuPlan, g: Gpu): Result<Estimate> => {
    if (perCard) return estimate({ ...withPlan(s, p), gpu: g.id });
    let r = shared.get(p.gpus);
    if (!r) shared.set(p.gpus, (r = estimate({ ...withPlan(s, p), gpu: '' })));
    return r;
  };
  const one = estimateFor({ gpus: s.gpus, tp: s.tp, pp: s.pp }, gpus[0] ?? GPUS[0]!); // the catalogue is not empty
  if (!one.ok) return one;
  const out: Recommendation[] = [];
  for (const g of gpus) {
    const e = perCard ? estimateFor({ gpus: s.gpus, tp: s.tp, pp: s.pp }, g) : one;
    if (!e.ok) return e;
    const mark = fitMark(s, e.value, g.capacityBytes, high);
    const fits = mark !== 'no';
    let count: number | null = s.gpus;
    if (!fits) {
      const plan = minGpusBy(s, (p) => {
        const r = estimateFor(p, g);
        // fitsWithin reads the mode, engine and token counts, which a plan leaves as they are
        return r.ok ? { ok: true, value: fitsWithin(s, r.value, g.capacityBytes) } : r;
      });
      count = plan.ok && plan.value ? plan.value.gpus : null;
    }
    out.push({ id: g.id, name: g.name, category: g.category, capacityBytes: g.capacityBytes, fits, mark, headroomBytes: g.capacityBytes - e.value.deviceBytes, count });
  }
  return { ok: true, value: out.sort(compare) };
}
