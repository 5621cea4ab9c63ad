/**
 * What a proposal was before the user asked for changes, so the revised proposal can be shown as a diff
 * against it ("what changed since I asked"), while the change set itself still goes from the file's base
 * to the revision (what accepting writes). Kept in memory for the window, a bounded number of files.
 */
import type { ChangeSetRegistry } from '../../engine/index.js';

const maxKeptFiles = 500;

export class RevisionHistory {
  /** `${taskId}\0${path}` → the proposed content before the latest revision request. */
  private readonly previous = new Map<string, string>();

  constructor(private readonly changes: ChangeSetRegistry) {}

  /** Remembers the task's pending proposals as they are now; returns how many files. */
  rememberBefore(taskId: string): number {
    const files =
      this.changes
        .get(taskId)
        ?.snapshot()
        .files.filter((file) => file.status === 'pending') ?? [];
    for (const file of files) {
      const key = keyOf(taskId, file.path);
      this.previous.delete(key);
      this.previous.set(key, file.proposedContent);
    }
    for (const oldest of this.previous.keys()) {
      if (this.previous.size <= maxKeptFiles) break;
      this.previous.delete(oldest);
    }
    return files.length;
  }

  previousContent(taskId: string, path: string): string | undefined {
    return this.previous.get(keyOf(taskId, path));
  }

  /** Files of the task whose proposal differs from what it was before the revision (new files included). */
  revisedPaths(taskId: string): string[] {
    const files =
      this.changes
        .get(taskId)
        ?.snapshot()
        .files.filter((file) => file.status === 'pending') ?? [];
    return files.filter((file) => this.previous.get(keyOf(taskId, file.path)) !== file.proposedContent).map((file) => file.path);
  }
}

function keyOf(taskId: string, path: string): string {
  return `${taskId}\0${path}`;
}
