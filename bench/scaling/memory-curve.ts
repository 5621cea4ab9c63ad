/**
 * B6 at growing sizes: the heap held by N finished tasks (delegations of a coordinator and 4 researchers
 * that read files over three turns), with the run log attached as the hosts run (their transcripts in its
 * files), over the same team empty, per 1,000 tasks. Each size runs in a fresh team and a fresh run log;
 * the heap is read after full garbage collections.
 */
import { delegationsFor, files, measureHeap } from '../b6-memory.js';
import { bytesPerMegabyte } from '../support/stats.js';
import { withTempFolder } from '../support/temp-folder.js';

export interface MemoryPoint {
  tasks: number;
  perThousandMb: number;
  kbPerTask: number;
  /** The transcripts as JSON, per 1,000 tasks: what the heap holds them in. */
  transcriptsPerThousandMb: number;
}

export function memoryCurve(sizes: readonly number[], log: (line: string) => void): Promise<MemoryPoint[]> {
  return withTempFolder(files, async (root) => {
    const points: MemoryPoint[] = [];
    for (const size of sizes) {
      const figures = await measureHeap(root, delegationsFor(size));
      const growth = figures.afterBytes - figures.baselineBytes;
      const point = {
        tasks: figures.tasks,
        perThousandMb: (growth * 1_000) / figures.tasks / bytesPerMegabyte,
        kbPerTask: growth / figures.tasks / 1024,
        transcriptsPerThousandMb: (figures.transcriptChars * 1_000) / figures.tasks / bytesPerMegabyte,
      };
      const megabytes = (bytes: number) => (bytes / bytesPerMegabyte).toFixed(0);
      log(
        `C1 B6: ${point.tasks.toLocaleString('en-US')} tasks: ${point.perThousandMb.toFixed(1)} MB per 1,000 (${point.kbPerTask.toFixed(1)} KB a task); heap ${megabytes(figures.afterBytes)} MB, ${megabytes(figures.readBackBytes)} MB after reading every transcript back, peak ${megabytes(figures.peakBytes)} MB`,
      );
      points.push(point);
    }
    return points;
  });
}
