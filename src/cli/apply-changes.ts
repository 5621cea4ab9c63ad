/**
 * `--apply`: writes the proposed changes of a run that completed, file by file, so that a Ctrl-C stops
 * between two files (never inside one) and the user is told exactly what was written and what was not.
 * A run that failed or was stopped applies nothing: its edits may be half of a change. Within a run that
 * completed, only the proposals of tasks that completed are written; a failed or stopped subagent's are
 * listed as skipped, with why.
 */
import { describeStopReason } from '../engine/errors.js';
import { applyChangeSet } from '../engine/changes/apply.js';
import type { ChangeSet } from '../engine/changes/change-set.js';
import type { TaskSnapshot } from '../engine/tasks/types.js';
import type { Workspace } from '../engine/workspace/workspace.js';
import { printApplyReport } from './changes-output.js';
import { terminalSafe } from './terminal-text.js';

type Output = { write(text: string): void };

/** True when something could not be applied (a conflict, a sensitive file, a failure) or nothing was. */
export async function applyRunChanges(
  root: TaskSnapshot,
  changeSets: readonly ChangeSet[],
  workspace: Workspace,
  options: { signal: AbortSignal; output: Output; taskOf(taskId: string): TaskSnapshot | undefined },
): Promise<{ failed: boolean }> {
  const { output, signal } = options;
  if (changeSets.length === 0) return { failed: false };
  if (root.status !== 'completed' || signal.aborted) {
    const why = signal.aborted ? 'it was interrupted' : `it ${endedAs(root)}${reasonOf(root)}`;
    output.write(terminalSafe(`\n--apply: nothing was written because the run did not complete (${why}); its edits may be half done. The proposed changes are listed above.`) + '\n');
    return { failed: true };
  }
  let failed = false;
  const written: string[] = [];
  const notWritten: string[] = [];
  for (const changeSet of changeSets) {
    const task = options.taskOf(changeSet.taskId);
    if (task?.status !== 'completed') {
      const why = task ? `${task.role} ${task.id} ${endedAs(task)}${reasonOf(task)}` : `task ${changeSet.taskId} is unknown`;
      output.write(`${terminalSafe(`skipped: ${changeSet.openPaths().join(', ')} — not applied because ${why}; its edits may be half done`)}\n`);
      continue;
    }
    changeSet.accept();
    for (const path of changeSet.openPaths()) {
      if (signal.aborted) {
        notWritten.push(path);
        continue;
      }
      const report = await applyChangeSet(changeSet, workspace, { paths: [path] });
      printApplyReport(report, output);
      for (const file of report.files) {
        if (file.outcome === 'applied') written.push(file.path);
        else failed = true;
      }
    }
  }
  if (notWritten.length > 0) {
    output.write(terminalSafe(`\nApplying stopped by Ctrl-C. Written: ${written.join(', ') || '(none)'}. Not written: ${notWritten.join(', ')}.`) + '\n');
    failed = true;
  }
  return { failed };
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
