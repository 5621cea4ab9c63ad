/**
 * B14, the run log's cost per event does not grow with the history. Two run-log directories, one holding
 * 10 earlier runs and one 10,000 (quick: 200), written directly as files with their index; on each, new
 * runs go through a real TaskManager with the log attached: a coordinator and two foreground researchers,
 * each 5 turns of a conversation record and 3 transcript entries (a tool call, its ~2 KB result, text),
 * each started and ended, the log flushed at the end. Runs on the two directories alternate, so a busy
 * machine slows both alike; each run is forgotten afterwards (untimed) so the directories keep their size.
 * Reported: the median time per event on each and their ratio (target <= 1.5x), and as the baseline it
 * replaces, the old JSON history file's cost per save (it was saved whole at every task start and end)
 * with 10 and 10,000 earlier tasks. Then the log is opened again 7 times on each directory, alternating:
 * the open's wall and CPU time (target <= 20 ms), and, as the open leaves work for later (a run's line is
 * parsed whole when asked for, the task lookup built at its first use), the time from the open to the
 * CLI's first answer (a new task id) and to the whole listing.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ModelMessage } from '../src/engine/model/types.js';
import { idsAfter } from '../src/engine/runs/run-ids.js';
import { RunLog } from '../src/engine/runs/run-log.js';
import { JsonFileTaskStore } from '../src/engine/tasks/json-file-task-store.js';
import { TaskManager } from '../src/engine/tasks/task-manager.js';
import type { TaskWork } from '../src/engine/tasks/work.js';
import { earlierHistory, text, writeEarlierRuns } from './support/earlier-runs.js';
import { median, now, percentile } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

const turns = 5;

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** An agent's turns as the run log sees them: its conversation at each boundary, then the turn's entries. */
function agentWork(label: string, children: (parentId: string) => Promise<void>): TaskWork {
  return async (context) => {
    const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: text(300) }] }];
    for (let turn = 0; turn < turns; turn++) {
      context.recordConversation?.(messages);
      const callId = `${label}-${turn}`;
      const input = { file_path: `src/file${turn}.ts` };
      const output = text(2000);
      context.appendTranscript({ type: 'text', text: text(200) });
      context.appendTranscript({ type: 'tool-call', toolCallId: callId, toolName: 'Read', input });
      context.appendTranscript({ type: 'tool-result', toolCallId: callId, toolName: 'Read', output, isError: false });
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: text(200) },
          { type: 'tool-call', toolCallId: callId, toolName: 'Read', input },
        ],
      });
      messages.push({ role: 'user', content: [{ type: 'tool-result', toolCallId: callId, toolName: 'Read', output, isError: false }] });
    }
    context.recordConversation?.(messages);
    await children(context.taskId);
    return { status: 'completed', output: text(300) };
  };
}

export interface LogUnderTest {
  earlierRuns: number;
  runLog: RunLog;
  manager: TaskManager;
  events: number;
  /** Milliseconds per event, one figure per run. */
  perEvent: number[];
  openMs: number;
}

export async function openLog(directory: string, earlierRuns: number, warnings: string[]): Promise<LogUnderTest> {
  await mkdir(directory);
  await writeEarlierRuns(directory, earlierRuns, Date.now());
  const started = now();
  // Signed as the hosts sign it (each line's MAC, run-log-signature.ts): what an event costs includes it.
  const runLog = await RunLog.open({ directory, onWarning: (message) => warnings.push(message), signing: { key: randomBytes(32) } });
  const openMs = now() - started;
  const manager = new TaskManager({ maxConcurrent: 4 });
  const log: LogUnderTest = { earlierRuns, runLog, manager, events: 0, perEvent: [], openMs };
  runLog.attach(manager);
  manager.onEvent(() => log.events++);
  return log;
}

/** One new run, timed from its start to the log flushed; then forgotten, untimed. */
export async function timeOneRun(log: LogUnderTest): Promise<void> {
  const { manager, runLog } = log;
  const researcher = (parentId: string, index: number) =>
    manager.start({
      parentId,
      role: 'researcher',
      description: `Check part ${index}`,
      prompt: text(200),
      mode: 'foreground',
      work: agentWork(`r${index}`, async () => undefined),
    });
  const eventsBefore = log.events;
  const started = now();
  const { task } = await manager.start({
    role: 'coordinator',
    description: 'Find the date parser',
    prompt: text(300),
    mode: 'foreground',
    work: agentWork('coordinator', async (parentId) => {
      await researcher(parentId, 1);
      await researcher(parentId, 2);
    }),
  });
  await runLog.flush();
  log.perEvent.push((now() - started) / (log.events - eventsBefore));
  await runLog.forget([task.id]);
}

/** The old store: the median time of one save of a history of `tasks` tasks. */
async function timeJsonSaves(directory: string, tasks: number, saves: number): Promise<number> {
  const store = new JsonFileTaskStore(path.join(directory, `tasks-${tasks}.json`));
  const history = earlierHistory(tasks, Date.now());
  const times: number[] = [];
  for (let save = 0; save < saves + 1; save++) {
    const started = now();
    await store.save(history);
    if (save > 0) times.push(now() - started); // The first save makes the file: a warm-up.
  }
  return median(times);
}

export const runLogCost: Benchmark = {
  id: 'B14',
  title: 'Run log save cost',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const many = context.quick ? 200 : 10_000;
    const rounds = context.quick ? 10 : 100;
    const base = await mkdtemp(path.join(tmpdir(), 'agent-team-bench-runs-'));
    const warnings: string[] = [];
    try {
      context.log(`B14: writing run-log directories of 10 and ${many.toLocaleString('en-US')} earlier runs`);
      const few = await openLog(path.join(base, 'few'), 10, warnings);
      const lots = await openLog(path.join(base, 'many'), many, warnings);
      context.log(`B14: ${rounds} new runs on each, alternating`);
      // Warm-up: the code paths, the page cache, V8's optimizations.
      for (let round = 0; round < 3; round++) for (const log of [few, lots]) await timeOneRun(log);
      few.perEvent.length = 0;
      lots.perEvent.length = 0;
      for (let round = 0; round < rounds; round++) {
        for (const log of round % 2 === 0 ? [few, lots] : [lots, few]) await timeOneRun(log);
      }
      await Promise.all([few.runLog.close(), lots.runLog.close()]);
      // Opening again, alternating, as a new window or CLI process does (the first open above was cold).
      const opens = { few: [] as number[], lots: [] as number[] };
      // The process's CPU time over each open of the large log: the host thread's work (and the GC's helpers),
      // which a loaded machine does not inflate as it does the wall time.
      const openCpu: number[] = [];
      // What the CLI's `run` asks first (a new task's id, past every task id the index lists), and the whole
      // listing (`agent-team runs`), each timed from the open: the work an open leaves for later, paid there.
      const firstAnswer = { wall: [] as number[], cpu: [] as number[] };
      const wholeListing: number[] = [];
      for (let round = 0; round < (context.quick ? 2 : 7); round++) {
        for (const [key, log] of [
          ['few', few],
          ['lots', lots],
        ] as const) {
          const started = now();
          const cpu = process.cpuUsage();
          const reopened = await RunLog.open({ directory: log.runLog.directory, onWarning: (message) => warnings.push(message) });
          opens[key].push(now() - started);
          const used = process.cpuUsage(cpu);
          if (key === 'lots') {
            openCpu.push(cpuMs(used));
            const taskId = idsAfter(reopened)();
            if (reopened.runOf(taskId) !== undefined) throw new Error(`${taskId} is taken`);
            firstAnswer.wall.push(now() - started);
            firstAnswer.cpu.push(cpuMs(process.cpuUsage(cpu)));
            reopened.runs();
            wholeListing.push(now() - started);
          }
          await reopened.close();
        }
      }
      const openFew = median(opens.few);
      const openMany = median(opens.lots);
      if (warnings.length > 0) throw new Error(`the run log warned: ${warnings.slice(0, 3).join('; ')}`);
      const eventsPerRun = few.events / (rounds + 3);

      context.log(`B14: the old JSON history, saved with 10 and ${many.toLocaleString('en-US')} earlier tasks`);
      const jsonFew = await timeJsonSaves(base, 10, context.quick ? 5 : 30);
      const jsonMany = await timeJsonSaves(base, many, context.quick ? 5 : 10);

      const small = median(few.perEvent) * 1000;
      const large = median(lots.perEvent) * 1000;
      const ratio = large / small;
      const manyLabel = many.toLocaleString('en-US');
      return {
        measurements: [
          {
            name: `time per event, ${manyLabel} earlier runs / 10`,
            value: ratio,
            unit: '×',
            ...(context.quick ? {} : { target: 1.5 }),
            display: `${ratio.toFixed(2)}× (${large.toFixed(1)} vs ${small.toFixed(1)} µs an event)`,
            note: `median of ${rounds} runs each, ${Math.round(eventsPerRun)} events a run, flushed`,
          },
          {
            name: 'time per event, 10 earlier runs',
            value: small,
            unit: 'µs',
            display: `${small.toFixed(1)} µs (p90 ${(percentile(few.perEvent, 0.9) * 1000).toFixed(1)})`,
          },
          {
            name: `time per event, ${manyLabel} earlier runs`,
            value: large,
            unit: 'µs',
            display: `${large.toFixed(1)} µs (p90 ${(percentile(lots.perEvent, 0.9) * 1000).toFixed(1)})`,
          },
          {
            name: `old JSON history: one save, ${manyLabel} earlier tasks / 10`,
            value: jsonMany / jsonFew,
            unit: '×',
            display: `${(jsonMany / jsonFew).toFixed(1)}× (${jsonMany.toFixed(1)} vs ${jsonFew.toFixed(2)} ms a save)`,
            note: 'the baseline replaced: the whole history rewritten at every task start and end',
          },
          {
            name: `opening the log: ${manyLabel} runs (median of ${opens.lots.length}, alternating with 10 runs)`,
            value: openMany,
            unit: 'ms',
            ...(context.quick ? {} : { target: 20 }),
            display: `${openMany.toFixed(1)} ms (CPU ${median(openCpu).toFixed(1)} ms; 10 runs: ${openFew.toFixed(1)} ms; the first, cold: ${lots.openMs.toFixed(1)} ms)`,
            note: 'reads and checks every line of the index, once per process; what it leaves for later is in the next row',
          },
          {
            name: `opening the log and its first answer: ${manyLabel} runs`,
            value: median(firstAnswer.wall),
            unit: 'ms',
            display: `${median(firstAnswer.wall).toFixed(1)} ms (CPU ${median(firstAnswer.cpu).toFixed(1)} ms; and the whole listing: ${median(wholeListing).toFixed(1)} ms)`,
            note: "the CLI's first question (a new task id past every one listed, and the task lookup built for it); the listing parses every run",
          },
        ],
        details: {
          earlierRuns: [10, many],
          rounds,
          eventsPerRun,
          perEventMs: { few: few.perEvent, many: lots.perEvent },
          openMs: opens,
          openCpuMs: openCpu,
          firstAnswerMs: firstAnswer,
          wholeListingMs: wholeListing,
          jsonSaveMs: { few: jsonFew, many: jsonMany },
        },
      };
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },
};
