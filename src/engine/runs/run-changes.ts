/**
 * Which tasks' proposals changed since their run was last written. A change set changes at every edit
 * and every review decision, and its snapshot carries whole files, so a task's proposals are written
 * once per write of its run (its state then), not once per change. The registry does not announce a
 * removed set: a set gone by the time its run is written is recorded as removed (null).
 */
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { RunRecord } from './run-log-records.js';

export class ChangedProposals {
  /** Per run: the tasks whose proposals changed, and the registry that holds them. */
  private readonly changed = new Map<string, Map<string, ChangeSetRegistry>>();

  note(runId: string, taskId: string, registry: ChangeSetRegistry): void {
    const tasks = this.changed.get(runId) ?? new Map<string, ChangeSetRegistry>();
    tasks.set(taskId, registry);
    this.changed.set(runId, tasks);
  }

  /** The runs with changes not yet taken. */
  runs(): string[] {
    return [...this.changed.keys()];
  }

  /** The records of the run's changed proposals, as they are now; forgets them. */
  take(runId: string): RunRecord[] {
    const tasks = this.changed.get(runId);
    if (!tasks) return [];
    this.changed.delete(runId);
    return [...tasks].map(([taskId, registry]) => ({ type: 'changes', taskId, changeSet: registry.get(taskId)?.snapshot() ?? null }));
  }

  forget(runId: string): void {
    this.changed.delete(runId);
  }
}
