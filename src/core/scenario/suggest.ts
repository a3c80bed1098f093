/**
 * "Did you mean" suggestions: the candidates closest to a mistyped word by Levenshtein edit
 * distance (Levenshtein 1966), with a bonus for containing the typed text.
 */

/** Edit distance between a and b (insert, delete, substitute each cost 1); inputs capped at 200 chars. */
export function editDistance(a: string, b: string): number {
  const x = a.slice(0, 200);
  const y = b.slice(0, 200);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length];
}

/**
 * Up to `n` candidates closest to `typed` (case-insensitive). A candidate containing the typed
 * text, or whose last path segment is near it ('llama-2-7b-hf' for 'meta-llama/Llama-2-7b-hf'),
 * ranks first. Returns [] for an empty word.
 */
export function closest(typed: string, candidates: readonly string[], n = 3): string[] {
  const t = typed.trim().toLowerCase().slice(0, 200);
  if (t === '') return [];
  const scored = candidates.map((c) => {
    const lc = c.toLowerCase();
    const tail = lc.slice(lc.lastIndexOf('/') + 1);
    const d = Math.min(editDistance(t, lc), editDistance(t, tail));
    return { c, score: lc.includes(t) ? d / 4 : d };
  });
  const limit = Math.max(3, Math.ceil(t.length * 0.6));
  return scored
    .filter((s) => s.score <= limit)
    .sort((a, b) => a.score - b.score || a.c.localeCompare(b.c))
    .slice(0, n)
    .map((s) => s.c);
}
