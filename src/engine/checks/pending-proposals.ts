/**
 * Exactly what a run proposes, as the checks must see it, for every host (the coordinator's notice, `run
 * --checks`, VS Code's Run Checks): every file of the run's tree still waiting for review, as accepting it
 * would write it: the hunks the user rejected left out (changes/kept-content.ts), the user's own edits in.
 * Applied files and files rejected whole are not pending. Where two tasks propose one file, the one that
 * ended later wins: it was made on top of the earlier (tasks see the stacked proposals of their tree). A
 * proposal to a symbolic link lands on the link's target, as applying it would.
 */
import type { ChangeSetRegistry } from '../changes/registry.js';
import { contentWithoutRejected } from '../changes/kept-content.js';
import type { ProposedFile } from '../file-tools/task-tools.js';
import type { TaskManager } from '../tasks/task-manager.js';

export interface PendingProposals {
  /** In path order: the same proposals fingerprint alike whoever lists them. */
  proposals: ProposedFile[];
  /** The tasks with at least one pending file, in the order their proposals were layered. */
  taskIds: string[];
  /** Which task's proposal each file's content is. */
  authorOf: Map<string, string>;
}

export function pendingProposals(changes: ChangeSetRegistry, taskManager: Pick<TaskManager, 'treeOf'>, rootId: string): PendingProposals {
  // Sorted by when they ended (a task still at work last); the sort is stable, so ties keep the tree's order.
  const tasks = [...taskManager.treeOf(rootId)].sort(
    (a, b) => (a.endedAt ?? Number.MAX_SAFE_INTEGER) - (b.endedAt ?? Number.MAX_SAFE_INTEGER),
  );
  const byPath = new Map<string, string>();
  const authorOf = new Map<string, string>();
  const taskIds: string[] = [];
  for (const task of tasks) {
    const changeSet = changes.get(task.id);
    if (!changeSet) continue;
    let pending = false;
    for (const path of changeSet.openPaths()) {
      const file = changeSet.fileChange(path);
      const content = contentWithoutRejected(file);
      if (content === undefined) continue;
      pending = true;
      byPath.set(file.target ?? path, content);
      authorOf.set(file.target ?? path, task.id);
    }
    if (pending) taskIds.push(task.id);
  }
  const proposals = [...byPath]
    .map(([path, content]) => ({ path, content }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { proposals, taskIds, authorOf };
}

/** A fingerprint of a set of proposals: the same files with the same content give the same one. */
export function proposalsFingerprint(proposals: readonly ProposedFile[]): string {
  return JSON.stringify(proposals.map((file) => [file.path, file.content]));
}
