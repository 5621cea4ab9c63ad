/**
 * Exactly what a run proposes, as the checks must see it: every file still waiting for review in the
 * run's tree, with the hunks the user rejected left out (and the user's own edits in, as saved). Where
 * two tasks of the run propose the same file, the one that ended later wins: it was made on top of the
 * earlier (as `visibleProposals` stacks them for a task's commands). A proposal to a symbolic link lands
 * on the link's target, as applying it would.
 */
import type { ChangeSetRegistry, FileChangeSnapshot } from '../../engine/changes/index.js';
import type { FileChange } from '../../engine/changes/file-change.js';
import { applyHunks } from '../../engine/changes/hunks.js';
import type { ProposedFile } from '../../engine/file-tools/task-tools.js';
import type { TaskManager } from '../../engine/tasks/index.js';
import { reviewStatusOf } from '../change-summaries.js';

export interface RunProposals {
  /** The tasks of the run with files waiting for review, in the order their proposals were layered. */
  taskIds: string[];
  proposals: ProposedFile[];
}

export function runProposals(changes: ChangeSetRegistry, taskManager: Pick<TaskManager, 'treeOf'>, runId: string): RunProposals {
  const tasks = [...taskManager.treeOf(runId)].sort(
    (a, b) => (a.endedAt ?? Number.MAX_SAFE_INTEGER) - (b.endedAt ?? Number.MAX_SAFE_INTEGER),
  );
  const files = new Map<string, string>();
  const taskIds: string[] = [];
  for (const task of tasks) {
    const changeSet = changes.get(task.id);
    const pending = changeSet?.snapshot().files.filter((file) => reviewStatusOf(file) === 'pending') ?? [];
    if (!changeSet || pending.length === 0) continue;
    taskIds.push(task.id);
    for (const file of pending) {
      const content = contentUnderReview(file, changeSet.fileChange(file.path));
      if (content !== undefined) files.set(file.target ?? file.path, content);
    }
  }
  // In path order, as the engine lists them (pending-proposals.ts): the same proposals fingerprint alike.
  const proposals = [...files]
    .map(([path, content]) => ({ path, content }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { taskIds, proposals };
}

/** The file as accepting what is still proposed would write it: the base with every hunk not rejected. */
function contentUnderReview(file: FileChangeSnapshot, change: FileChange): string | undefined {
  if (file.baseContent === null)
    return file.hunks.every((hunk) => hunk.decision === 'rejected') && file.hunks.length > 0 ? undefined : file.proposedContent;
  if (file.hunks.every((hunk) => hunk.decision !== 'rejected')) return file.proposedContent;
  return applyHunks(file.baseContent, change.hunks, (hunk) => change.decisionOf(hunk) !== 'rejected');
}
