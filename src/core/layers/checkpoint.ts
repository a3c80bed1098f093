/**
 * Activation bytes under gradient checkpointing, following
 * torch.utils.checkpoint.checkpoint_sequential(functions, segments): segments−1 chunks of
 * ⌊n/segments⌋ modules run under checkpoint (only each chunk's input is kept), the last chunk
 * runs normally. segments = ⌈√n⌉, the √n schedule of Chen et al. 2016 (arXiv 1604.06174).
 * Backward recomputes one chunk at a time, last first, so the peak is the larger of
 * (kept inputs + last chunk's saved tensors) and, for each chunk i,
 * (inputs of chunks ≤ i + chunk i's recomputed saved tensors).
 */
import { sumBytes, type Analysis } from './analyze';

/**
 * Activations kept for backward at batch b with checkpoint_sequential over the top-level
 * modules: the peak bytes and the tensors (ids) live at that peak.
 */
export function checkpointed(a: Analysis, b: number): { bytes: number; ids: Set<number> } {
  const n = a.units.length;
  const bytes = (ids: Iterable<number>) => sumBytes(a, ids, b);
  if (n < 2) return { bytes: bytes(a.saved), ids: a.saved };
  const segments = Math.ceil(Math.sqrt(n));
  const size = Math.floor(n / segments);
  const chunks: { input: number; saved: Set<number> }[] = [];
  // every index below is under size · segments ≤ n = units.length
  for (let start = 0; start < size * (segments - 1); start += size) {
    const saved = new Set<number>();
    for (let u = start; u < start + size; u++) for (const id of a.units[u]!.saved) saved.add(id);
    chunks.push({ input: a.units[start]!.inputId, saved });
  }
  const last = new Set<number>();
  for (let u = size * (segments - 1); u < n; u++) for (const id of a.units[u]!.saved) last.add(id);
  const inputs = chunks.map((c) => c.input);
  let ids = new Set([...inputs, ...last]);
  let peak = bytes(ids);
  chunks.forEach((c, i) => {
    const live = new Set([...inputs.slice(0, i + 1), ...c.saved]);
    const v = bytes(live);
    if (v > peak) {
      peak = v;
      ids = live;
    }
  });
  return { bytes: peak, ids };
}
