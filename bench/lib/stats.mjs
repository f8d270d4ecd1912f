/** Small statistics helpers for the benchmark (sorted-copy percentiles, no interpolation). */

/** The p-th percentile (0–100) of the values, nearest-rank. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The median of the values. */
export const median = (values) => percentile(values, 50);

/** Runs `count` calls of `call` with `concurrency` callers at once; resolves when all are done. */
export async function runConcurrently(call, count, concurrency) {
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
