/**
 * One process at a time per run: `--resume` or `--continue` in one terminal while the run still works in
 * another would run its agents twice and give two tasks the same id in one run file. Each CLI process
 * holds `<runId>.lock` (its pid) for the runs it writes; a lock whose process is gone (killed, crashed)
 * is stale and taken over. A lock is a promise between agent-team processes, not a defence against
 * someone who deletes it.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../engine/errors.js';
import { safeRunId } from '../engine/runs/run-log-records.js';
import { isProcessAlive } from '../engine/process-alive.js';

export class RunLocks {
  private readonly held = new Set<string>();

  constructor(private readonly directory: string) {}

  /** Takes the run's lock; throws a `ConfigurationError` naming the process that holds it. */
  claim(runId: string): void {
    if (this.held.has(runId)) return;
    // The id names a file here: one that could lead elsewhere (`../x`) names no run at all.
    if (!safeRunId.test(runId)) throw new ConfigurationError(`There is no run ${JSON.stringify(runId.slice(0, 120))}: a run id is letters, digits, '-' or '_' (agent-team runs lists them).`);
    const file = this.fileOf(runId);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const descriptor = openSync(file, 'wx', 0o600);
        writeSync(descriptor, `${process.pid}\n`);
        closeSync(descriptor);
        this.held.add(runId);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = Number.parseInt(readLock(file), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
        throw new ConfigurationError(`Run ${runId} is being worked on by another agent-team process (pid ${holder}). Wait for it to end (or stop it), then try again.`);
      }
      // Left by a process that is gone: taken over.
      unlinkSync(file);
    }
    throw new ConfigurationError(`Run ${runId} could not be locked (${file}); try again.`);
  }

  releaseAll(): void {
    for (const runId of this.held) {
      try {
        unlinkSync(this.fileOf(runId));
      } catch {
        // Already gone: nothing to release.
      }
    }
    this.held.clear();
  }

  private fileOf(runId: string): string {
    return path.join(this.directory, `${runId}.lock`);
  }
}

function readLock(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
