/**
 * C1's curve of concurrent background subagents: 1, 10, 100 and 500 researchers started at once by a
 * coordinator (`run_in_background`, in turns of 16) and awaited, as B2 runs them: each is the provider's
 * real SDK over HTTP to the mock provider (a child process holding every response 250 ms), a `Read`, then
 * the answer. Per subagent: the main thread's busy time (event-loop utilization, as B2) and the heap held
 * while all of them are in flight (read after full collections the moment the last first request was
 * sent, in a second run of the same size so the collections do not weigh on the time). Both should stay
 * flat: a subagent costs the same whether it runs alone or beside 499 others.
 */
import { performance as nodePerformance } from 'node:perf_hooks';
import type { ModelProvider } from '../../src/engine/model/create-model.js';
import type { Model } from '../../src/engine/model/types.js';
import { textTurn, toolCallTurn } from '../../test/support/mock-provider/index.js';
import { b2Team, delegateAll } from '../support/b2-team.js';
import { mockServerModel } from '../support/mock-models.js';
import { type MockServerProcess, startMockServerProcess } from '../support/mock-server-process.js';
import { bytesPerMegabyte, collectGarbage, median } from '../support/stats.js';
import { withTempFolder } from '../support/temp-folder.js';

export interface SubagentsPoint {
  provider: ModelProvider;
  subagents: number;
  /** The event loop's busy time per subagent over the whole run (median of the runs at this size). */
  mainThreadPerSubagentMs: number;
  /** Heap over the team before the run, per subagent, with every subagent's first request in flight. */
  heapPerSubagentKb: number;
  wallMs: number;
}

/** The researchers' model, calling `allSent` once the `subagents`-th first request has gone out. */
function countingModel(inner: Model, subagents: number, allSent: () => void): Model {
  let firstRequests = 0;
  return {
    provider: inner.provider,
    modelId: inner.modelId,
    stream: (request) => {
      if (request.messages.length === 1 && ++firstRequests === subagents) allSent();
      return inner.stream(request);
    },
  };
}

async function oneRun(provider: ModelProvider, server: MockServerProcess, root: string, subagents: number, measureHeap: boolean) {
  server.reset();
  let heldBytes = 0;
  let baseline = 0;
  const model = countingModel(mockServerModel(server, provider), subagents, () => {
    if (!measureHeap) return;
    // The first requests are held by the server for 250 ms: every subagent is alive and waiting.
    setImmediate(() => {
      collectGarbage();
      heldBytes = process.memoryUsage().heapUsed - baseline;
    });
  });
  const bench = b2Team(root, subagents, model);
  try {
    await bench.ready;
    if (measureHeap) {
      collectGarbage();
      baseline = process.memoryUsage().heapUsed;
    }
    const loopStart = nodePerformance.eventLoopUtilization();
    const start = nodePerformance.now();
    const { task } = await delegateAll(bench, subagents);
    const wallMs = nodePerformance.now() - start;
    const loop = nodePerformance.eventLoopUtilization(loopStart);
    const children = bench.taskManager.children(task.id);
    const failed = children.find((child) => child.status !== 'completed');
    if (task.status !== 'completed' || failed)
      throw new Error(
        `${children.length - (failed ? children.filter((child) => child.status !== 'completed').length : 0)} of ${subagents} subagents completed; one ended ${failed?.status ?? task.status}: ${failed?.error ?? task.error ?? ''}`,
      );
    return { mainThreadMs: loop.active, heldBytes, wallMs };
  } finally {
    await bench.close();
  }
}

export async function subagentsCurve(
  sizes: readonly number[],
  providers: readonly ModelProvider[],
  log: (line: string) => void,
): Promise<SubagentsPoint[]> {
  const server = await startMockServerProcess({
    delayMs: 250,
    firstTurn: toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }]),
    secondTurn: textTurn('The notes say: ', 'ship it on Friday.'),
  });
  try {
    return await withTempFolder({ 'notes.txt': 'Ship it on Friday.\n' }, async (root) => {
      const points: SubagentsPoint[] = [];
      for (const provider of providers) {
        // Unmeasured: the first requests pay for loading the SDK.
        await oneRun(provider, server, root, 10, false);
        for (const subagents of sizes) {
          // Small sizes are one reading's noise: repeated, the median kept.
          const runs = subagents < 100 ? 5 : 1;
          const times: number[] = [];
          const walls: number[] = [];
          for (let run = 0; run < runs; run++) {
            const timed = await oneRun(provider, server, root, subagents, false);
            times.push(timed.mainThreadMs / subagents);
            walls.push(timed.wallMs);
          }
          const held = await oneRun(provider, server, root, subagents, true);
          const point: SubagentsPoint = {
            provider,
            subagents,
            mainThreadPerSubagentMs: median(times),
            heapPerSubagentKb: held.heldBytes / subagents / 1024,
            wallMs: median(walls),
          };
          log(
            `C1 subagents ${provider}: ${subagents} at once: main thread ${point.mainThreadPerSubagentMs.toFixed(2)} ms, heap ${point.heapPerSubagentKb.toFixed(0)} KB a subagent (wall ${point.wallMs.toFixed(0)} ms; heap in flight ${(held.heldBytes / bytesPerMegabyte).toFixed(1)} MB)`,
          );
          points.push(point);
        }
      }
      return points;
    });
  } finally {
    await server.close();
  }
}
