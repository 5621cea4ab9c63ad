/**
 * Which tasks' proposals changed since their run was last written. A change set changes at every edit
 * and every review decision, so a task's proposals are written once per write of its run (its state
 * then), not once per change, and what a write holds is what changed since the run file last heard of
 * them (run-proposal-texts.ts). The registry does not announce a removed set: a set gone by the time its
 * run is written is recorded as removed (null).
 */
import type { ChangeSetRegistry } from '../changes/registry.js';
import { type AddRecord, ProposalTextsWritten } from './run-proposal-texts.js';

export class ChangedProposals {
  /** Per run: the tasks whose proposals changed, and the registry that holds them. */
  private readonly changed = new Map<string, Map<string, ChangeSetRegistry>>();
  /** Per run whose file is open here: the proposals' texts the file already holds. */
  private readonly written = new Map<string, ProposalTextsWritten>();

  note(runId: string, taskId: string, registry: ChangeSetRegistry): void {
    const tasks = this.changed.get(runId) ?? new Map<string, ChangeSetRegistry>();
    tasks.set(taskId, registry);
    this.changed.set(runId, tasks);
  }

  /** The runs with changes not yet taken. */
  runs(): string[] {
    return [...this.changed.keys()];
  }

  /** Hands `add` the records of the run's changed proposals, as they are now; forgets the changes. */
  take(runId: string, add: AddRecord): void {
    const tasks = this.changed.get(runId);
    if (!tasks) return;
    this.changed.delete(runId);
    let written = this.written.get(runId);
    if (!written) {
      written = new ProposalTextsWritten();
      this.written.set(runId, written);
    }
    for (const [taskId, registry] of tasks) written.addRecords(taskId, registry.get(taskId)?.snapshot() ?? null, add);
  }

  /**
   * Forgets what the run's file holds: it was closed (another process, or this one later, may append to
   * it), or a write to it failed. The next record of each task writes its texts whole.
   */
  forgetWritten(runId: string): void {
    this.written.delete(runId);
  }

  /** The run is gone: its changes and what its file held are forgotten. */
  forget(runId: string): void {
    this.changed.delete(runId);
    this.written.delete(runId);
  }
}
