/**
 * The event loop's delay, as `perf_hooks.monitorEventLoopDelay` samples it: a timer every `resolutionMs`
 * (1 ms) notes how late it ran. Each figure is the time between two ticks, so an idle loop shows about the
 * resolution itself (1.0-1.1 ms) and a 30 ms block one sample of about 31 ms.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const resolutionMs = 1;

export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Ticks sampled. */
  samples: number;
  /** How long the loop was watched. */
  wallMs: number;
}

const nanosecondsPerMillisecond = 1e6;

/** Starts sampling; the returned function stops and reports. */
export function watchLoopDelay(): () => LoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  const start = performance.now();
  histogram.enable();
  return () => {
    histogram.disable();
    return {
      p50Ms: histogram.percentile(50) / nanosecondsPerMillisecond,
      p99Ms: histogram.percentile(99) / nanosecondsPerMillisecond,
      maxMs: histogram.max / nanosecondsPerMillisecond,
      samples: histogram.count,
      wallMs: performance.now() - start,
    };
  };
}

export function describeLoopDelay(delay: LoopDelay): string {
  return `p50 ${delay.p50Ms.toFixed(1)} / p99 ${delay.p99Ms.toFixed(1)} / max ${delay.maxMs.toFixed(1)} ms`;
}
