/**
 * The pending proposals of a run's tree, exactly as they would be written: each open file's proposed
 * content; where several tasks propose one file, the latest task's (its proposal is built on the earlier
 * ones: tasks see the stacked proposals of their tree). Applied and rejected files are not pending.
 */
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { ProposedFile } from '../file-tools/task-tools.js';

export interface PendingProposals {
  proposals: ProposedFile[];
  /** The tasks with at least one open file, in the registry's order. */
  taskIds: string[];
  /** Which task's proposal each file's content is. */
  authorOf: Map<string, string>;
}

export function pendingProposals(changes: ChangeSetRegistry, inTree: (taskId: string) => boolean): PendingProposals {
  const byPath = new Map<string, ProposedFile>();
  const authorOf = new Map<string, string>();
  const taskIds: string[] = [];
  for (const changeSet of changes.list()) {
    if (!inTree(changeSet.taskId)) continue;
    const open = changeSet.openPaths();
    if (open.length === 0) continue;
    taskIds.push(changeSet.taskId);
    for (const path of open) {
      const content = changeSet.proposedContent(path);
      if (content === undefined) continue;
      byPath.set(path, { path, content });
      authorOf.set(path, changeSet.taskId);
    }
  }
  return { proposals: [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), taskIds, authorOf };
}

/** A fingerprint of a set of proposals: the same files with the same content give the same one. */
export function proposalsFingerprint(proposals: readonly ProposedFile[]): string {
  return JSON.stringify(proposals.map((file) => [file.path, file.content]));
}
