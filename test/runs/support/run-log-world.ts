/**
 * A run log in a fresh temporary folder with a real task manager attached, on one manual clock, and the
 * warnings it gave. Each test makes its own and removes it afterwards.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunLog, type RunLogOptions } from '../../../src/engine/runs/run-log.js';
import type { TaskManagerOptions } from '../../../src/engine/tasks/options.js';
import { TaskManager } from '../../../src/engine/tasks/task-manager.js';
import { ManualClock } from '../../../src/engine/testing/manual-clock.js';
import type { StartTaskOptions } from '../../../src/engine/tasks/work.js';
import { StagedWork } from '../../tasks/support/staged-work.js';

export interface RunLogWorld {
  directory: string;
  clock: ManualClock;
  warnings: string[];
  runLog: RunLog;
  manager: TaskManager;
  /** Flushes this log, then opens another on the same directory (as a later process would). */
  reopen(options?: Partial<RunLogOptions>): Promise<RunLog>;
  /** The run file's lines, parsed. */
  lines(runId: string): Promise<Array<Record<string, unknown>>>;
  remove(): Promise<void>;
}

/** `manager`: more options for the task manager (its clock and store are the world's). `options` may depend on the folder (its signing key). */
export async function createRunLogWorld(
  given: Partial<RunLogOptions> | ((directory: string) => Promise<Partial<RunLogOptions>>) = {},
  manager: TaskManagerOptions = {},
): Promise<RunLogWorld> {
  const directory = await mkdtemp(path.join(tmpdir(), 'agent-team-runs-'));
  const options = typeof given === 'function' ? await given(directory) : given;
  const clock = new ManualClock();
  const warnings: string[] = [];
  const open = (more: Partial<RunLogOptions> = {}) =>
    RunLog.open({ directory, clock, onWarning: (message) => warnings.push(message), ...options, ...more });
  const runLog = await open();
  const taskManager = new TaskManager({ ...manager, clock, store: runLog });
  runLog.attach(taskManager);
  return {
    directory,
    clock,
    warnings,
    runLog,
    manager: taskManager,
    reopen: async (more) => {
      await runLog.flush();
      return open(more);
    },
    lines: async (runId) =>
      (await readFile(path.join(directory, `${runId}.jsonl`), 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    remove: async () => {
      await runLog.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export function task(work: StagedWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return {
    role: 'researcher',
    description: 'Find the parser',
    prompt: 'Where are dates parsed?',
    mode: 'background',
    work: work.work,
    ...overrides,
  };
}

/** Starts a root task, lets it write one transcript entry and complete: a finished run of one task. */
export async function finishedRun(manager: TaskManager, output = 'done'): Promise<string> {
  const work = new StagedWork();
  const { task: started } = await manager.start(task(work));
  (await work.started).appendTranscript({ type: 'text', text: output });
  work.complete(output);
  await manager.wait(started.id);
  return started.id;
}
