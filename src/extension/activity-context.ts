/**
 * What is going on, for `when` clauses and the view: the context keys `agentTeam.hasRunningTasks`,
 * `agentTeam.hasTasks`, `agentTeam.hasPendingChanges` and `agentTeam.hasInterruptedRuns`, and the Agent
 * Team view's badge with the number of tasks at work. Kept incrementally from the events (a long history
 * is never walked per event); set only when they change.
 */
import * as vscode from 'vscode';
import { type ChangeSetRegistry, DisposableStore, isTerminal, type TaskManager, type TaskSnapshot } from '../engine/index.js';
import { pendingFiles } from './change-summaries.js';

export const hasRunningTasksKey = 'agentTeam.hasRunningTasks';
export const hasPendingChangesKey = 'agentTeam.hasPendingChanges';
/** Any task in the history: the commands that act on a task (Show Task, Export Trace, …) are offered only then. */
export const hasTasksKey = 'agentTeam.hasTasks';
/** Any run whose root is `interrupted`: Resume Run is offered in the palette only then. */
export const hasInterruptedRunsKey = 'agentTeam.hasInterruptedRuns';
/** The user accepted or rejected a proposed change in this window: the walkthrough's review step is done then, not on opening a review. */
export const hasDecidedChangesKey = 'agentTeam.hasDecidedChanges';

export class ActivityContext implements vscode.Disposable {
  /** Tasks not yet ended (queued, running, waiting). */
  private readonly active = new Set<string>();
  /** Roots that are interrupted (a resumed one leaves as it starts again). */
  private readonly interruptedRuns = new Set<string>();
  private readonly keys = new Map<string, boolean>();
  private readonly subscriptions = new DisposableStore();
  private badge = -1;

  constructor(
    private readonly taskManager: TaskManager,
    private readonly changes: ChangeSetRegistry,
    private readonly showBadge: (activeTasks: number) => void,
  ) {
    this.subscriptions.addAll(
      taskManager.onEvent((event) => {
        if (event.type !== 'task-start' && event.type !== 'task-update' && event.type !== 'task-end') return;
        if (isTerminal(event.task.status)) this.active.delete(event.task.id);
        else this.active.add(event.task.id);
        this.noteInterrupted(event.task);
        this.update();
      }),
      changes.onEvent((event) => {
        if (event.type === 'change-decided' || event.type === 'change-applied') this.set(hasDecidedChangesKey, true);
        this.updateChanges();
      }),
    );
    this.refresh();
  }

  /** Recounts from scratch: after the history loads or is cleared. */
  refresh(): void {
    this.active.clear();
    this.interruptedRuns.clear();
    const tasks = this.taskManager.list();
    for (const task of tasks) {
      if (!isTerminal(task.status)) this.active.add(task.id);
      this.noteInterrupted(task);
    }
    this.set(hasTasksKey, tasks.length > 0);
    this.update();
    this.updateChanges();
  }

  /** After change sets were removed (they send no event then). */
  updateChanges(): void {
    this.set(
      hasPendingChangesKey,
      this.changes.list().some((changeSet) => pendingFiles(changeSet).length > 0),
    );
  }

  dispose(): void {
    this.subscriptions.dispose();
  }

  private noteInterrupted(task: TaskSnapshot): void {
    if (task.parentId !== null) return;
    if (task.status === 'interrupted') this.interruptedRuns.add(task.id);
    else this.interruptedRuns.delete(task.id);
  }

  private update(): void {
    this.set(hasRunningTasksKey, this.active.size > 0);
    this.set(hasInterruptedRunsKey, this.interruptedRuns.size > 0);
    // A task that starts makes one; only clearing the history (refresh) can take the last away.
    if (this.active.size > 0) this.set(hasTasksKey, true);
    if (this.active.size !== this.badge) {
      this.badge = this.active.size;
      this.showBadge(this.badge);
    }
  }

  private set(key: string, value: boolean): void {
    if (this.keys.get(key) === value) return;
    this.keys.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
