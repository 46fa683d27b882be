// Small numeric helpers for the bench's table: medians of timing samples and their ratios.

/** Median of the samples; the mean of the middle two for an even count. NaN for none. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `value / base`, or NaN when either is missing or the base is not positive. */
export function ratio(value: number, base: number): number {
  return Number.isFinite(value) && Number.isFinite(base) && base > 0 ? value / base : Number.NaN;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

export function formatRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}x` : '-';
}
