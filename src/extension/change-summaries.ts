/** Change sets as the sidebar sees them: per file `+n −m` and whether it is pending, accepted or rejected. */
import type { ChangeSet, FileChangeSnapshot } from '../engine/index.js';
import type { ChangeFile, ChangeSummary } from '../shared/protocol.js';

/** `accepted` once written; `rejected` when every hunk was rejected; otherwise `pending`. */
export function reviewStatusOf(file: FileChangeSnapshot): ChangeFile['status'] {
  if (file.status === 'applied') return 'accepted';
  if (file.hunks.length > 0 && file.hunks.every((hunk) => hunk.decision === 'rejected')) return 'rejected';
  return 'pending';
}

/** `isUndone`: whether an accepted file was undone since (undone-files.ts). Default: none was. */
export function changeSummaryOf(changeSet: ChangeSet, isUndone: (path: string) => boolean = () => false): ChangeSummary {
  const files = changeSet.snapshot().files.map((file) => {
    const status = reviewStatusOf(file);
    return {
      path: file.path,
      added: file.added,
      removed: file.removed,
      status: status === 'accepted' && isUndone(file.path) ? ('undone' as const) : status,
    };
  });
  return {
    taskId: changeSet.taskId,
    files,
    added: files.reduce((sum, file) => sum + file.added, 0),
    removed: files.reduce((sum, file) => sum + file.removed, 0),
    pending: files.filter((file) => file.status === 'pending').length,
  };
}

/** Files still waiting for a decision, in path order. */
export function pendingFiles(changeSet: ChangeSet): FileChangeSnapshot[] {
  return changeSet.snapshot().files.filter((file) => reviewStatusOf(file) === 'pending');
}
