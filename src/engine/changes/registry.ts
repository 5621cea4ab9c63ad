import { WorkspaceError } from '../errors.js';
import { Emitter } from '../util/emitter.js';
import { defaultWorkspacePolicy, type WorkspacePolicy } from '../workspace/policy.js';
import { ChangeSet } from './change-set.js';
import { type ChangeSetEvent, type ChangeSetListener } from './types.js';

export interface ChangeSetRegistryOptions {
  /** Given to every change set it creates. Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
}

/**
 * Every task's change set, in one place, so that parallel tasks editing one checkout see each other:
 * when two or more tasks have open proposals for the same file, each of their sets marks that file
 * `overlapsWith` the others (kept current as edits arrive, are withdrawn or applied). Re-emits all its
 * sets' events, so the CLI and the sidebar subscribe once.
 */
export class ChangeSetRegistry {
  private readonly policy: WorkspacePolicy;
  private readonly sets = new Map<string, { changeSet: ChangeSet; unsubscribe: () => void }>();
  // A failing consumer is skipped (the default): it must not starve the others.
  private readonly events = new Emitter<ChangeSetEvent>();

  constructor(options: ChangeSetRegistryOptions = {}) {
    this.policy = options.policy ?? defaultWorkspacePolicy;
  }

  /** A new, empty change set for `taskId`. Throws when the task already has one. */
  create(taskId: string, role: string): ChangeSet {
    const changeSet = new ChangeSet({ taskId, role, policy: this.policy });
    this.add(changeSet);
    return changeSet;
  }

  /**
   * A change set for `taskId` that joins the registry with its first event (its first proposal): most
   * tasks propose nothing, and a long history of empty sets would cost memory and make every overlap
   * check walk them all (B6 in docs/performance.md). Until then `get(taskId)` has nothing for the task.
   */
  createWhenUsed(taskId: string, role: string): ChangeSet {
    const changeSet = new ChangeSet({ taskId, role, policy: this.policy });
    const stopWaiting = changeSet.onEvent((first) => {
      stopWaiting();
      if (this.sets.has(taskId)) return;
      this.add(changeSet);
      this.onSetEvent(first);
    });
    return changeSet;
  }

  /** Registers an existing set (one restored from history, say). Throws when the task already has one. */
  add(changeSet: ChangeSet): void {
    if (this.sets.has(changeSet.taskId)) {
      throw new WorkspaceError('invalid', `Task ${changeSet.taskId} already has a change set.`);
    }
    const unsubscribe = changeSet.onEvent((event) => this.onSetEvent(event));
    this.sets.set(changeSet.taskId, { changeSet, unsubscribe });
    for (const path of changeSet.openPaths()) this.refreshOverlaps(path);
  }

  get(taskId: string): ChangeSet | undefined {
    return this.sets.get(taskId)?.changeSet;
  }

  list(): ChangeSet[] {
    return [...this.sets.values()].map((entry) => entry.changeSet);
  }

  /** Forgets a task's set (history cleared); the overlaps it caused are lifted. */
  remove(taskId: string): void {
    const entry = this.sets.get(taskId);
    if (!entry) return;
    entry.unsubscribe();
    this.sets.delete(taskId);
    for (const path of entry.changeSet.openPaths()) this.refreshOverlaps(path);
  }

  /** Tasks with an open proposal for `path`, sorted. */
  tasksProposing(path: string): string[] {
    return this.list()
      .filter((changeSet) => changeSet.isOpen(path))
      .map((changeSet) => changeSet.taskId)
      .sort();
  }

  /** Listens to every set's events (including overlaps); returns the function that stops listening. */
  onEvent(listener: ChangeSetListener): () => void {
    return this.events.subscribe(listener);
  }

  private onSetEvent(event: ChangeSetEvent): void {
    this.events.emit(event);
    if (event.type === 'change-proposed' || event.type === 'change-withdrawn' || event.type === 'change-applied') {
      this.refreshOverlaps(event.path);
    }
  }

  private refreshOverlaps(path: string): void {
    const proposing = this.tasksProposing(path);
    for (const taskId of proposing) {
      this.get(taskId)?.setOverlaps(
        path,
        proposing.filter((other) => other !== taskId),
      );
    }
  }
}
