/**
 * "Did you mean" suggestions: the candidates closest to a mistyped word by Levenshtein edit
 * distance (Levenshtein 1966), with a bonus for containing the typed text.
 */

/** Longest word compared; longer input is cut (suggestions only need the start). */
const MAX_WORD = 64;

/** Edit distance between a and b (insert, delete, substitute each cost 1); inputs capped at 64 chars. */
export function editDistance(a: string, b: string): number {
  const x = a.slice(0, MAX_WORD);
  const y = b.slice(0, MAX_WORD);
  let prev = new Uint8Array(y.length + 1).map((_, j) => j);
  let cur = new Uint8Array(y.length + 1);
  // both rows hold y.length + 1 entries and 1 ≤ j ≤ y.length
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

/**
 * Up to `n` candidates closest to `typed` (case-insensitive). A candidate containing the typed
 * text, or whose last path segment is near it ('llama-2-7b-hf' for 'meta-llama/Llama-2-7b-hf'),
 * ranks first. Returns [] for an empty word.
 */
export function closest(typed: string, candidates: readonly string[], n = 3): string[] {
  const t = typed.trim().toLowerCase().slice(0, MAX_WORD);
  if (t === '') return [];
  const limit = Math.max(3, Math.ceil(t.length * 0.6));
  // |len(a) − len(b)| is a lower bound of the distance: skip words that cannot be within the limit
  const near = (w: string) => (Math.abs(Math.min(w.length, MAX_WORD) - t.length) > limit ? Infinity : editDistance(t, w));
  const scored = candidates.map((c) => {
    const lc = c.toLowerCase();
    const d = Math.min(near(lc), near(lc.slice(lc.lastIndexOf('/') + 1)));
    return { c, score: lc.includes(t) ? Math.min(d, lc.length - t.length) / 4 : d };
  });
  return scored
    .filter((s) => s.score <= limit)
    .sort((a, b) => a.score - b.score || a.c.localeCompare(b.c))
    .slice(0, n)
    .map((s) => s.c);
}
