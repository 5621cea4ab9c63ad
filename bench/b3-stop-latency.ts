/**
 * B3, stop latency: how fast a stop really stops a subagent that is streaming from its provider.
 *
 * Each round starts a researcher in the background on the provider's real SDK; the mock server streams a
 * little text and then holds the stream open. Once the text has reached the task, `taskManager.stop(id)`
 * is called, and three moments are timed from that call: the task's status turning `stopped` (the event
 * the sidebar shows), the mock server seeing the HTTP request closed by the client (the provider stops
 * generating, and billing), and the task's `task-end` (its work returned, partial output kept).
 *
 * The mock server runs in a process of its own and times the close as it sees it, as a provider would
 * (support/mock-server-process.ts): in this process it could notice the close only once the engine's own
 * winding down after the stop had left the event loop, which a provider never waits for (that winding
 * down is the task-end figure).
 *
 * Beside it, in the same run and against the same server: the bare SDK stopping its own stream with an
 * AbortController (support/bare-sdk-stop.ts), what Node, the SDK and the server take on their own; and the
 * CPU time of a round (start, stream, stop) of this process. The target stays on the absolute p95, as the
 * floor is a fraction of a millisecond.
 */
import type { ModelProvider } from '../src/engine/model/create-model.js';
import type { TaskEvent } from '../src/engine/tasks/index.js';
import { bareSdkStopTimes, hangingText, withinTenSeconds } from './support/bare-sdk-stop.js';
import { mockServerModel, providers } from './support/mock-models.js';
import { absoluteNow, type MockServerProcess, startMockServerProcess } from './support/mock-server-process.js';
import { percentile } from './support/stats.js';
import { assertNoWarnings, createBenchTeam } from './support/team-fixture.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

interface StopTimes {
  statusMs: number;
  requestClosedMs: number;
  taskEndMs: number;
}

/** Resolves with the time of the first event that `matches`. */
function timeOf(events: Array<(event: TaskEvent) => void>, matches: (event: TaskEvent) => boolean): Promise<number> {
  return new Promise((resolve) => {
    const listener = (event: TaskEvent) => {
      if (!matches(event)) return;
      events.splice(events.indexOf(listener), 1);
      resolve(absoluteNow());
    };
    events.push(listener);
  });
}

async function measureStops(provider: ModelProvider, server: MockServerProcess, rounds: number): Promise<StopTimes[]> {
  const model = mockServerModel(server, provider);
  const bench = createBenchTeam({ modelFor: () => model, taskManager: { maxConcurrent: 4 } });
  const listeners: Array<(event: TaskEvent) => void> = [];
  bench.taskManager.onEvent((event) => {
    for (const listener of [...listeners]) listener(event);
  });
  const times: StopTimes[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      let taskId = '';
      const streaming = timeOf(listeners, (event) => event.type === 'task-text-delta' && event.taskId === taskId);
      const { task } = await bench.team.delegate({
        prompt: `Find where dates are parsed (${round}).`,
        role: 'researcher',
        mode: 'background',
      });
      taskId = task.id;
      await streaming;
      const statusStopped = timeOf(
        listeners,
        (event) => event.type === 'task-update' && event.task.id === taskId && event.task.status === 'stopped',
      );
      const ended = timeOf(listeners, (event) => event.type === 'task-end' && event.task.id === taskId);
      const closed = withinTenSeconds(server.latestRequestClosed(), `the server never saw task ${taskId}'s request closed`);
      const start = absoluteNow();
      const stopping = bench.taskManager.stop(taskId);
      const [statusAt, closedAt, endedAt, final] = await Promise.all([statusStopped, closed, ended, stopping]);
      if (final.status !== 'stopped') throw new Error(`task ${taskId} ended ${final.status}, not stopped`);
      times.push({ statusMs: statusAt - start, requestClosedMs: closedAt - start, taskEndMs: endedAt - start });
    }
    assertNoWarnings(bench);
    return times;
  } finally {
    await bench.close();
  }
}

function describe(values: number[]): { p50: number; p95: number; display: string } {
  const p50 = percentile(values, 0.5);
  const p95 = percentile(values, 0.95);
  return { p50, p95, display: `p50 ${p50.toFixed(2)} / p95 ${p95.toFixed(2)} ms` };
}

export const stopLatency: Benchmark = {
  id: 'B3',
  title: 'stop latency',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const rounds = context.quick ? 20 : 200;
    const measurements: Measurement[] = [];
    const details: Record<string, unknown> = { rounds };
    for (const provider of providers) {
      const server = await startMockServerProcess({ hangingText });
      try {
        await measureStops(provider, server, Math.min(rounds, 10)); // warm-up: loads the SDK and fetch
        const cpuBefore = process.cpuUsage();
        const times = await measureStops(provider, server, rounds);
        const cpu = process.cpuUsage(cpuBefore);
        const cpuPerRoundMs = (cpu.user + cpu.system) / 1000 / rounds;
        await bareSdkStopTimes(provider, server, Math.min(rounds, 10)); // warm-up
        const floor = describe(await bareSdkStopTimes(provider, server, rounds));
        const closed = describe(times.map((time) => time.requestClosedMs));
        const ended = describe(times.map((time) => time.taskEndMs));
        const status = describe(times.map((time) => time.statusMs));
        context.log(
          `B3 ${provider}: request closed ${closed.display} (bare SDK ${floor.display}); task-end ${ended.display}; status ${status.display}; CPU ${cpuPerRoundMs.toFixed(2)} ms a round`,
        );
        measurements.push(
          {
            name: `stop → request closed, ${provider} (${rounds})`,
            value: closed.p95,
            unit: 'ms',
            target: 5,
            display: `${closed.display} (the bare SDK's own abort: ${floor.display}; CPU ${cpuPerRoundMs.toFixed(2)} ms a round)`,
          },
          { name: `stop → status stopped, ${provider}`, value: status.p95, unit: 'ms', target: 5, display: status.display },
          { name: `stop → task-end, ${provider}`, value: ended.p95, unit: 'ms', target: 5, display: ended.display },
        );
        details[provider] = { requestClosed: closed, status, taskEnd: ended, bareSdkRequestClosed: floor, cpuPerRoundMs };
      } finally {
        await server.close();
      }
    }
    return { measurements, details };
  },
};
