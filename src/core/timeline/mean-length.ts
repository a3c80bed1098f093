/**
 * The mean sample length lengths=varied draws from: `len-mean`, or seq/2 when it is 'auto' (an
 * assumption, timeline/lengths.ts), within [1, seq]. Without imports, so the page's form can show it
 * without loading the replay.
 */
export function meanLength(seq: number, mean: number | null): number {
  return Math.min(seq, Math.max(1, mean ?? seq / 2));
}
