/**
 * Which of a run's proposals may be written at all, for every way of applying them (`--apply`, `apply`,
 * `apply --branch`, `--hunk`, `--show`): none when the run did not complete (its edits may be half done),
 * else only its completed tasks', in the order the tasks started, the others listed as skipped with why.
 */
import { type ChangeSet, describeStopReason, type TaskSnapshot } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

type Output = { write(text: string): void };

/** How the checks speak: the command's name, and what follows "its edits may be half done." */
export interface ProposalChecksWording {
  /** Default `--apply`. */
  label?: string;
  /** Default: the proposed changes are listed above (as `run` prints them). */
  afterNote?: string;
}

/**
 * The change sets that may be written: none when the run did not complete or was interrupted (said why),
 * else those of tasks that completed (the others listed as skipped, with why), in the order the tasks
 * started. `undefined`: nothing may.
 */
export function completedProposals(
  root: TaskSnapshot,
  changeSets: readonly ChangeSet[],
  options: { interrupted: boolean; output: Output; taskOf(taskId: string): TaskSnapshot | undefined; wording?: ProposalChecksWording },
): ChangeSet[] | undefined {
  const { output } = options;
  if (root.status !== 'completed' || options.interrupted) {
    const why = options.interrupted ? 'it was interrupted' : `it ${endedAs(root)}${reasonOf(root)}`;
    const after = options.wording?.afterNote ?? ' The proposed changes are listed above.';
    output.write(
      terminalSafe(
        `\n${options.wording?.label ?? '--apply'}: nothing was written because the run did not complete (${why}); its edits may be half done.${after}`,
      ) + '\n',
    );
    return undefined;
  }
  const completed: ChangeSet[] = [];
  for (const changeSet of changeSets) {
    const task = options.taskOf(changeSet.taskId);
    if (task?.status !== 'completed') {
      const why = task ? `${task.role} ${task.id} ${endedAs(task)}${reasonOf(task)}` : `task ${changeSet.taskId} is unknown`;
      output.write(
        `${terminalSafe(`skipped: ${changeSet.openPaths().join(', ')} — not applied because ${why}; its edits may be half done`)}\n`,
      );
      continue;
    }
    completed.push(changeSet);
  }
  // In the order the tasks started: a later task's change to a file is merged onto an earlier one's.
  const started = (changeSet: ChangeSet) => options.taskOf(changeSet.taskId)?.createdAt ?? 0;
  return completed.sort(
    (a, b) => started(a) - started(b) || a.taskId.length - b.taskId.length || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0),
  );
}

/** How a task that did not complete ended, in words that follow its name ("was stopped", "failed"). */
function endedAs(task: TaskSnapshot): string {
  return task.status === 'stopped' || task.status === 'interrupted' ? `was ${task.status}` : task.status;
}

function reasonOf(root: TaskSnapshot): string {
  if (root.error) return `: ${root.error}`;
  if (root.stopReason) return `: ${describeStopReason(root.stopReason)}`;
  return '';
}
