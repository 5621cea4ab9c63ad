/** Small numeric helpers the benchmarks share. */
import { performance } from 'node:perf_hooks';

/** The `fraction` (0…1) percentile of `values`, nearest-rank; NaN for an empty list. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** Three significant digits, without a trailing `.0` noise: 0.0412, 4.12, 41.2, 412, 4120. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toString();
}

export const bytesPerMegabyte = 1024 * 1024;

/** Milliseconds since an arbitrary start, with sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}

/** Runs a full garbage collection when the process was started with --expose-gc (npm run bench does). */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the benchmarks with node --expose-gc (npm run bench does)');
  gc();
  gc();
}

/** Resolves after the event loop has gone round once more (lets pending I/O callbacks and timers run). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
