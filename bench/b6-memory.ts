/**
 * B6, memory: what the extension host's heap holds for a long history. 1,000 finished tasks with their
 * transcripts (200 delegations: a coordinator that hands work to 4 researchers at once; each researcher
 * reads files with the real Read tool over three turns and writes ~2 KB), over a baseline of the same setup
 * with no tasks. Both figures are read after full garbage collections (`--expose-gc`). Measured as the
 * hosts run (the run log attached, which keeps finished tasks' transcripts in its files, not the heap),
 * and without a run log (tests, hosts that keep none: the transcripts stay in memory).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import type { ModelRequest } from '../src/engine/model/types.js';
import { RunLog } from '../src/engine/runs/run-log.js';
import { type HeldStep, ScriptedModel, type ScriptedEvent, type ScriptStep } from '../src/engine/testing/scripted-model.js';
import { bytesPerMegabyte, collectGarbage } from './support/stats.js';
import { assertNoWarnings, type BenchTeam, createBenchTeam, folderToolbox } from './support/team-fixture.js';
import { withTempFolder } from './support/temp-folder.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

const subagentsPerDelegation = 4;

/** The target: heap over baseline per 1,000 finished tasks, MB (issue 28: 10 → 5; issue 43: 3). */
export const heapPerThousandTargetMb = 3;
const words =
  'the parser reads the date string splits it on separators and builds a Date in the local time zone which is wrong for timestamps that come from the server in UTC'.split(
    ' ',
  );

/** About `length` characters of prose, unique per `seed` (and a flat string, not a slice of a shared one). */
function prose(seed: number, length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < length; index++) {
    const word = `${words[(seed + index) % words.length]}${(seed * 7 + index) % 13 === 0 ? ` (${seed}:${index})` : ''}`;
    parts.push(word);
    size += word.length + 1;
  }
  return parts.join(' ');
}

function sourceFile(index: number): string {
  return Array.from(
    { length: 40 },
    (_, line) => `export function parse${index}_${line}(value: string): Date { return new Date(value); }`,
  ).join('\n');
}

export const files = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`parse${index}.ts`, sourceFile(index)]));

let seed = 0;

/**
 * The answer, streamed on a later turn of the event loop, as every provider's arrives (over HTTP, or VS Code's
 * IPC). A model answering in the same turn made the whole run one turn of the event loop once `Read` stopped
 * going through libuv's pool: the run log's writes (its files' opens, the index) could then complete only at
 * the final flush, so every run's lines and every task's transcript stayed in the heap until then, and
 * 100,000 tasks ran out of a 4 GB heap. No host runs that way; the figure is of what a host holds.
 */
function onLaterTurn(events: readonly ScriptedEvent[]): HeldStep {
  const step = ScriptedModel.held([], events);
  setImmediate(() => step.release());
  return step;
}

/** Turn 1: a note and two reads; turn 2: one more read; turn 3: the ~2 KB answer. */
const researcherStep: ScriptStep = (request: ModelRequest) => {
  seed += 1;
  const turn = Math.ceil(request.messages.length / 2);
  if (turn === 1) {
    return onLaterTurn([
      ScriptedModel.text(prose(seed, 300)),
      ScriptedModel.toolCall('Read', { file_path: `parse${seed % 8}.ts` }),
      ScriptedModel.toolCall('Read', { file_path: `parse${(seed + 1) % 8}.ts` }),
    ]);
  }
  if (turn === 2)
    return onLaterTurn([
      ScriptedModel.text(prose(seed, 200)),
      ScriptedModel.toolCall('Read', { file_path: `parse${(seed + 2) % 8}.ts`, limit: 20 }),
    ]);
  return onLaterTurn([ScriptedModel.text(prose(seed, 2_000))]);
};

const coordinatorStep: ScriptStep = (request: ModelRequest) => {
  seed += 1;
  if (request.messages.length > 1) return onLaterTurn([ScriptedModel.text(prose(seed, 1_000))]);
  return onLaterTurn(
    Array.from({ length: subagentsPerDelegation }, (_, index) =>
      ScriptedModel.toolCall('Agent', {
        subagent_type: 'researcher',
        description: `Check parser ${index}`,
        prompt: prose(seed + index, 400),
      }),
    ),
  );
};

/** The team B6 measures: a scripted coordinator and researchers, their models scripted for `delegations` delegations. */
export function createTeam(root: string, delegations: number, runLog: RunLog | undefined): BenchTeam {
  const coordinator = new ScriptedModel(new Array<ScriptStep>(delegations * 2).fill(coordinatorStep), { recordCalls: false });
  const researcher = new ScriptedModel(new Array<ScriptStep>(delegations * subagentsPerDelegation * 3).fill(researcherStep), {
    recordCalls: false,
  });
  const bench = createBenchTeam({
    modelFor: (role) => (role === 'coordinator' ? coordinator : researcher),
    toolbox: folderToolbox(root),
    taskManager: { maxConcurrent: subagentsPerDelegation + 1 },
  });
  // As the CLI and the extension do: the log follows the manager and keeps the finished transcripts.
  runLog?.attach(bench.taskManager);
  return bench;
}

/** The run log's own directory, beside the workspace (its files are not the agents' to read). */
export async function withRunLog<Result>(use: (runLog: RunLog) => Promise<Result>): Promise<Result> {
  const directory = await mkdtemp(nodePath.join(tmpdir(), 'agent-team-bench-runs-'));
  const warnings: string[] = [];
  const runLog = await RunLog.open({
    directory,
    onWarning: (message) => warnings.push(message),
    retention: { maxBytes: Infinity, maxAgeDays: Infinity },
  });
  try {
    const result = await use(runLog);
    if (warnings.length > 0) throw new Error(`the run log warned: ${warnings.slice(0, 3).join('; ')}`);
    return result;
  } finally {
    await runLog.close();
    await rm(directory, { recursive: true, force: true });
  }
}

/** Everything written, and the transcripts the log now holds let go of. */
async function settle(bench: BenchTeam, runLog: RunLog | undefined): Promise<void> {
  await bench.taskManager.flush();
  await runLog?.flush();
}

/** `delegations` delegations, one after another, each checked to complete. */
export async function runDelegations(bench: BenchTeam, delegations: number): Promise<void> {
  for (let index = 0; index < delegations; index++) {
    const { task } = await bench.team.delegate({ prompt: prose(index, 300) });
    if (task.status !== 'completed') throw new Error(`delegation ${index} ended ${task.status}: ${task.error ?? ''}`);
  }
  assertNoWarnings(bench);
}

function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

export interface HeapFigures {
  tasks: number;
  baselineBytes: number;
  afterBytes: number;
  transcriptChars: number;
  transcriptEntries: number;
  /** The heap after reading every transcript back (after full collections): reading back must keep nothing. */
  readBackBytes: number;
  /** The most the heap held while the tasks ran and were read back (sampled every 100 ms, no collection forced). */
  peakBytes: number;
}

/** The highest `heapUsed` seen until `stop()`, sampled on a timer. */
function samplePeakHeap(): () => number {
  let peak = process.memoryUsage().heapUsed;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().heapUsed);
  };
}

/**
 * The heap held by `delegations` finished delegations (5 tasks each) in a team, over the same team empty;
 * `withLog`: with a run log attached, as the hosts run (default), else transcripts stay in memory.
 */
export async function measureHeap(root: string, delegations: number, options: { withLog?: boolean } = {}): Promise<HeapFigures> {
  if (options.withLog === false) return measureTeamHeap(root, delegations, undefined);
  return withRunLog((runLog) => measureTeamHeap(root, delegations, runLog));
}

async function measureTeamHeap(root: string, delegations: number, runLog: RunLog | undefined): Promise<HeapFigures> {
  const tasks = delegations * (subagentsPerDelegation + 1);
  // Warm-up in a team of its own: lazily built module state (schemas, caches) is not the tasks' cost.
  const warmUp = createTeam(root, 3, runLog);
  await runDelegations(warmUp, 3);
  await Promise.all(warmUp.taskManager.list().map((task) => warmUp.taskManager.readTranscript(task.id)));
  await warmUp.close();

  const bench = createTeam(root, delegations, runLog);
  try {
    await settle(bench, runLog);
    const baselineBytes = heapUsed();
    const peak = samplePeakHeap();
    await runDelegations(bench, delegations);
    await settle(bench, runLog);
    const afterBytes = heapUsed();
    const all = bench.taskManager.list();
    if (all.length !== tasks || all.some((task) => task.status !== 'completed'))
      throw new Error(`expected ${tasks} completed tasks, have ${all.length}`);
    let transcriptChars = 0;
    // Read back as a user opening each task would (from the run log, when the heap no longer holds it).
    for (const task of all) transcriptChars += JSON.stringify(await bench.taskManager.readTranscript(task.id)).length;
    const peakBytes = peak();
    const transcriptEntries = all.reduce((sum, task) => sum + task.transcriptLength, 0);
    return { tasks, baselineBytes, afterBytes, transcriptChars, transcriptEntries, readBackBytes: heapUsed(), peakBytes };
  } finally {
    await bench.close();
  }
}

/** Delegations for about `tasks` tasks (5 a delegation), at least one. */
export function delegationsFor(tasks: number): number {
  return Math.max(1, Math.round(tasks / (subagentsPerDelegation + 1)));
}

export const memory: Benchmark = {
  id: 'B6',
  title: 'memory',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const delegations = context.quick ? 20 : 200;
    return withTempFolder(files, async (root) => {
      const {
        tasks,
        baselineBytes: baseline,
        afterBytes: after,
        transcriptChars,
        transcriptEntries: entries,
      } = await measureHeap(root, delegations);
      const inMemory = await measureHeap(root, delegations, { withLog: false });
      const growth = (after - baseline) / bytesPerMegabyte;
      // The target is for 1,000 tasks; a quick run's smaller history is scaled to it.
      const perThousand = (growth * 1_000) / tasks;
      const inMemoryPerThousand = ((inMemory.afterBytes - inMemory.baselineBytes) * 1_000) / tasks / bytesPerMegabyte;
      context.log(
        `B6: ${tasks} tasks, ${entries} transcript entries (${(transcriptChars / bytesPerMegabyte).toFixed(1)} MB as JSON): heap +${growth.toFixed(1)} MB with the run log, +${((inMemory.afterBytes - inMemory.baselineBytes) / bytesPerMegabyte).toFixed(1)} MB without`,
      );
      return {
        measurements: [
          {
            name: `heap over baseline per 1,000 tasks (${tasks.toLocaleString('en-US')} run, run log attached)`,
            value: perThousand,
            unit: 'MB',
            target: heapPerThousandTargetMb,
            baseline: `heap of the same setup with no tasks: ${(baseline / bytesPerMegabyte).toFixed(1)} MB`,
            display: `${perThousand.toFixed(1)} MB (${((after - baseline) / tasks / 1024).toFixed(1)} KB a task)`,
          },
          {
            name: 'without a run log (transcripts in memory)',
            value: inMemoryPerThousand,
            unit: 'MB',
            display: `${inMemoryPerThousand.toFixed(1)} MB (${((inMemory.afterBytes - inMemory.baselineBytes) / tasks / 1024).toFixed(1)} KB a task)`,
          },
          {
            name: 'their transcripts as JSON',
            value: (transcriptChars * 1_000) / tasks / bytesPerMegabyte,
            unit: 'MB',
            display: `${((transcriptChars * 1_000) / tasks / bytesPerMegabyte).toFixed(1)} MB (${Math.round(entries / tasks)} entries a task)`,
          },
        ],
        details: {
          tasks,
          baselineBytes: baseline,
          afterBytes: after,
          transcriptChars,
          transcriptEntries: entries,
          inMemoryBaselineBytes: inMemory.baselineBytes,
          inMemoryAfterBytes: inMemory.afterBytes,
        },
      };
    });
  },
};
