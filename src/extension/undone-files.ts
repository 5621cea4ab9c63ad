/**
 * Which accepted files of this window's runs were undone (Undo Accepted Changes) and not put back since:
 * the sidebar lists them `undone` beside the `accepted` ones in a task's changes. What the run log's restore
 * points say after a window reload is not read back here: a reloaded window lists them as accepted.
 */
export class UndoneFiles {
  /** Per task: the paths of its accepted files that are undone. */
  private readonly undone = new Map<string, Set<string>>();
  private readonly listeners = new Set<(taskIds: readonly string[]) => void>();

  isUndone(taskId: string, path: string): boolean {
    return this.undone.get(taskId)?.has(path) === true;
  }

  /** After an undo (`undone`) or its undo: `paths` of these tasks' accepted files. */
  record(taskIds: readonly string[], paths: readonly string[], undone: boolean): void {
    for (const taskId of taskIds) {
      const set = this.undone.get(taskId) ?? new Set<string>();
      for (const path of paths) {
        if (undone) set.add(path);
        else set.delete(path);
      }
      this.undone.set(taskId, set);
    }
    for (const listener of this.listeners) listener(taskIds);
  }

  /** Told the tasks whose files changed state; returns the unsubscribe. */
  onChanged(listener: (taskIds: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
