/**
 * What `agent-team apply` refuses before it reads a file: a foreign run without `--force`, a `--take` naming
 * a task with no proposals, a `--file` the run did not propose. Each is a `ConfigurationError` (exit 2)
 * that names what the run has instead, so a typo never applies something else in silence.
 */
import path from 'node:path';
import { ConfigurationError, describeForeign } from '../engine/index.js';
import { type HistoryRun, proposedPaths } from './history-run.js';

/** `--take` names a task of the run that proposed changes: a typo must not leave every conflict unsettled in silence. */
export function refuseUnknownTake(take: string | undefined, run: HistoryRun): void {
  if (take === undefined || run.changeSets.some((changeSet) => changeSet.taskId === take)) return;
  throw new ConfigurationError(
    `--take ${take}: task ${take} proposed no change in run ${run.runId}. Its tasks with proposals: ${run.changeSets.map((changeSet) => changeSet.taskId).join(', ') || 'none'}.`,
  );
}

/** Proposals of a run this user's agent-team did not write (planted in the repository?) are written only with `--force`. */
export function refuseForeign(run: HistoryRun, force: boolean, warn: (message: string) => void): void {
  const signature = run.contents.signature;
  if (signature.status !== 'foreign') return;
  if (force) return warn(`Run ${run.runId} is foreign: ${describeForeign(signature)}. Applying it anyway (--force).`);
  throw new ConfigurationError(
    `Run ${run.runId} is foreign: ${describeForeign(signature)}. Its proposals are not applied: they may not be your agents' work. Look at them (agent-team runs), and if you know where they came from, run again with --force.`,
  );
}

/**
 * `--file` paths as the run names them (workspace-relative, POSIX); one the run did not propose is a
 * usage error naming those it did. undefined: no `--file`, every file.
 */
export function chosenPaths(files: readonly string[], run: HistoryRun, workspaceRoot: string): ReadonlySet<string> | undefined {
  if (files.length === 0) return undefined;
  const proposed = proposedPaths(run);
  const chosen = new Set<string>();
  for (const file of files) {
    const relative = path.relative(workspaceRoot, path.resolve(workspaceRoot, file)).split(path.sep).join('/');
    if (!proposed.includes(relative))
      throw new ConfigurationError(`Run ${run.runId} proposed no change to ${file}. It proposed: ${proposed.join(', ') || 'nothing'}.`);
    chosen.add(relative);
  }
  return chosen;
}
