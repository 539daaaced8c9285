/** Small figures for the bench's lines. */

/** The middle value (the mean of the two middle ones for an even count); null when there is none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** "63 %" of `whole` that `part` is (rounded); "?" when the whole is nothing. */
export function percentOf(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((100 * part) / whole)} %` : '?';
}

/** Whether the figures meet the goal, said in a word: "met" or "missed (why)". */
export function goalVerdict(checks: ReadonlyArray<{ ok: boolean; what: string }>): string {
  const missed = checks.filter((check) => !check.ok).map((check) => check.what);
  return missed.length === 0 ? 'met' : `missed (${missed.join(', ')})`;
}

/** The nearest-rank percentile (p in 0..100) of the values: the smallest one with p % of them at or below it. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}
