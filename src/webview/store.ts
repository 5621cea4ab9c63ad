/**
 * Everything the sidebar shows, applied from host messages and user actions. The store only mutates
 * state and records what changed (`dirty`); the app decides when to render and what to post.
 */
import {
  type ChangeSummary,
  type HostMessage,
  type HostMessageOf,
  type ProtocolTask,
  type ProtocolTranscriptEntry,
  type RunChecks,
  type SetupState,
  type TaskDetail,
} from '../shared/protocol.js';
import { ancestorsOf } from './tree-model.js';

/** The selected task's transcript, as far as the host has sent it. */
/** The host's word that the composer's last text reached its task, and as what. */
export interface MessageSent {
  taskId: string;
  outcome: 'answered' | 'delivered' | 'follow-up';
}

export interface TranscriptState {
  taskId: string;
  entries: ProtocolTranscriptEntry[];
  /** Text of the current model turn, streamed by `text-delta`s; emptied by the next entry. */
  streamingText: string;
  /** False until the first `transcript` message for this selection arrives. */
  received: boolean;
  /** Bumped whenever the entries are replaced rather than appended to, so views rebuild. */
  epoch: number;
}

/** What changed since the last render; the app clears it after rendering. */
export interface DirtyFlags {
  /** Tasks added or removed, or rows expanded/collapsed: the visible rows must be recomputed. */
  structure: boolean;
  /** Anything else: task snapshots, selection, focus, setup, changes, transcript. */
  content: boolean;
}

/** What applying a host message asks the app to do besides rendering. */
export type StoreEffect = { kind: 'request-transcript'; taskId: string | null } | { kind: 'scroll-to'; taskId: string };

export class SidebarStore {
  /** False until the first snapshot: the view shows nothing (not even the empty state) before it. */
  loaded = false;
  /** False from a `snapshot` until its last part: tasks may still come that saved UI state refers to. */
  complete = false;
  readonly tasks = new Map<string, ProtocolTask>();
  readonly changes = new Map<string, ChangeSummary>();
  /** Runs' checks by run (root task) id: running, or the last verdict (checks-view.ts shows them). */
  readonly checks = new Map<string, RunChecks>();
  setup: SetupState | undefined;
  /** Host clock minus local clock, from the last message carrying `now`. */
  clockOffset = 0;
  selectedTaskId: string | null = null;
  focusedTaskId: string | null = null;
  readonly collapsed = new Set<string>();
  /** Bumped whenever `collapsed` changes, so saving UI state can skip unchanged sets cheaply. */
  collapsedVersion = 0;
  transcript: TranscriptState | undefined;
  /** The selected task's prompt and output, once the host has sent them (`task-detail`). */
  detail: TaskDetail | undefined;
  readonly dirty: DirtyFlags = { structure: true, content: true };
  private epoch = 0;
  /** A snapshot is arriving in parts and the selection it restores has not come yet. */
  private awaitingSelection = false;
  /** The host's word that the composer's last text reached its task. */
  messageSent: MessageSent | undefined;

  constructor(private readonly localNow: () => number) {}

  /** Applies one validated host message; returns follow-up work for the app. */
  apply(message: HostMessage): StoreEffect[] {
    switch (message.type) {
      case 'snapshot':
        return this.applySnapshot(message);
      case 'snapshot-part':
        this.clockOffset = message.now - this.localNow();
        for (const task of message.tasks) this.upsert(task);
        return this.complete ? [] : this.settleSnapshot(message.complete);
      case 'task-upsert':
        this.clockOffset = message.now - this.localNow();
        for (const task of message.tasks) this.upsert(task);
        return [];
      case 'task-removed':
        this.remove(new Set(message.taskIds));
        return [];
      case 'history-cleared': {
        const kept = new Set(message.keptTaskIds);
        this.remove(new Set([...this.tasks.keys()].filter((id) => !kept.has(id))));
        return [];
      }
      case 'text-delta':
        if (this.transcript?.taskId === message.taskId && message.text !== '') {
          this.transcript.streamingText += message.text;
          this.dirty.content = true;
        }
        return [];
      case 'task-detail':
        if (this.transcript?.taskId === message.taskId) {
          const { type: _type, ...detail } = message;
          this.detail = detail;
          this.dirty.content = true;
        }
        return [];
      case 'transcript':
        return this.applyTranscript(message);
      case 'change-summary':
        for (const summary of message.summaries) {
          if (summary.files.length === 0) this.changes.delete(summary.taskId);
          else this.changes.set(summary.taskId, summary);
        }
        this.dirty.content = true;
        return [];
      case 'setup-state':
        this.setup = message.setup;
        this.dirty.content = true;
        return [];
      case 'reveal-task':
        return this.reveal(message.taskId);
      case 'checks':
        for (const run of message.runs) this.checks.set(run.runId, run);
        this.dirty.content = true;
        return [];
      case 'message-sent':
        this.messageSent = { taskId: message.taskId, outcome: message.outcome };
        this.dirty.content = true;
        return [];
    }
  }

  /** The host's current time, estimated from the local clock. */
  hostNow(): number {
    return this.localNow() + this.clockOffset;
  }

  /** Selects a task (or nothing); returns whether the selection changed, so the caller tells the host. */
  select(taskId: string | null): boolean {
    const next = taskId !== null && this.tasks.has(taskId) ? taskId : null;
    if (next === this.selectedTaskId && (next === null || this.transcript?.taskId === next)) return false;
    this.awaitingSelection = false;
    this.selectedTaskId = next;
    this.transcript = next === null ? undefined : this.emptyTranscript(next);
    this.detail = undefined;
    this.dirty.content = true;
    return true;
  }

  focus(taskId: string | null): void {
    if (this.focusedTaskId === taskId) return;
    this.focusedTaskId = taskId;
    this.dirty.content = true;
  }

  setExpanded(taskId: string, expanded: boolean): void {
    if (expanded === !this.collapsed.has(taskId)) return;
    if (expanded) this.collapsed.delete(taskId);
    else this.collapsed.add(taskId);
    this.collapsedVersion++;
    this.dirty.structure = true;
  }

  /** Restores UI state saved by an earlier webview (before any snapshot arrives). */
  restore(state: { selectedTaskId: string | null; collapsedIds: string[] }): void {
    this.selectedTaskId = state.selectedTaskId;
    for (const id of state.collapsedIds) this.collapsed.add(id);
  }

  hasRunningTasks(): boolean {
    for (const task of this.tasks.values()) if (task.status === 'running' || task.status === 'waiting') return true;
    return false;
  }

  private applySnapshot(message: HostMessageOf<'snapshot'>): StoreEffect[] {
    this.loaded = true;
    this.complete = false;
    this.clockOffset = message.now - this.localNow();
    this.tasks.clear();
    for (const task of message.tasks) this.tasks.set(task.id, task);
    this.changes.clear();
    this.checks.clear();
    for (const summary of message.changes) if (summary.files.length > 0) this.changes.set(summary.taskId, summary);
    this.setup = message.setup;
    this.markAllDirty();
    // A snapshot starts a new conversation with the host, which knows no selection yet: restate it once
    // its task is there.
    this.transcript = undefined;
    this.detail = undefined;
    this.awaitingSelection = this.selectedTaskId !== null;
    return this.settleSnapshot(message.complete);
  }

  /**
   * After each part of a snapshot: restates the selection once its task has come; after the last part,
   * forgets a selection, collapsed rows and focus whose tasks did not come.
   */
  private settleSnapshot(complete: boolean): StoreEffect[] {
    const effects: StoreEffect[] = [];
    const selected = this.selectedTaskId;
    if (this.awaitingSelection && selected !== null && (this.tasks.has(selected) || complete)) {
      this.awaitingSelection = false;
      if (this.tasks.has(selected)) {
        this.transcript = this.emptyTranscript(selected);
        effects.push({ kind: 'request-transcript', taskId: selected });
      } else {
        this.selectedTaskId = null;
      }
    }
    if (!complete) return effects;
    this.complete = true;
    for (const id of [...this.collapsed]) if (!this.tasks.has(id) && this.collapsed.delete(id)) this.collapsedVersion++;
    if (this.focusedTaskId !== null && !this.tasks.has(this.focusedTaskId)) this.focusedTaskId = null;
    return effects;
  }

  private upsert(task: ProtocolTask): void {
    const previous = this.tasks.get(task.id);
    this.tasks.set(task.id, task);
    if (!previous || previous.parentId !== task.parentId || previous.createdAt !== task.createdAt) this.dirty.structure = true;
    this.dirty.content = true;
  }

  private remove(taskIds: ReadonlySet<string>): void {
    let removedAny = false;
    for (const id of taskIds) {
      if (!this.tasks.delete(id)) continue;
      removedAny = true;
      this.changes.delete(id);
      this.checks.delete(id);
      if (this.collapsed.delete(id)) this.collapsedVersion++;
    }
    if (!removedAny) return;
    if (this.selectedTaskId !== null && !this.tasks.has(this.selectedTaskId)) {
      this.selectedTaskId = null;
      this.transcript = undefined;
      this.detail = undefined;
    }
    if (this.focusedTaskId !== null && !this.tasks.has(this.focusedTaskId)) this.focusedTaskId = null;
    this.markAllDirty();
  }

  private applyTranscript(message: HostMessageOf<'transcript'>): StoreEffect[] {
    const transcript = this.transcript;
    if (!transcript || transcript.taskId !== message.taskId) return [];
    if (message.index > transcript.entries.length) {
      // Entries went missing (a message was dropped): ask for the whole stored transcript again.
      return [{ kind: 'request-transcript', taskId: message.taskId }];
    }
    if (message.index < transcript.entries.length || message.index === 0) {
      transcript.entries = transcript.entries.slice(0, message.index);
      transcript.epoch = ++this.epoch;
    }
    transcript.entries.push(...message.entries);
    transcript.received = true;
    // A finished entry ends the streamed turn: its text is now in the entries.
    if (message.entries.length > 0 || message.index === 0) transcript.streamingText = '';
    this.dirty.content = true;
    return [];
  }

  private reveal(taskId: string): StoreEffect[] {
    if (!this.tasks.has(taskId)) return [];
    for (const ancestor of ancestorsOf(this.tasks, taskId)) this.setExpanded(ancestor, true);
    this.focus(taskId);
    const changed = this.select(taskId);
    return [...(changed ? [{ kind: 'request-transcript', taskId } as const] : []), { kind: 'scroll-to', taskId }];
  }

  private emptyTranscript(taskId: string): TranscriptState {
    return { taskId, entries: [], streamingText: '', received: false, epoch: ++this.epoch };
  }

  private markAllDirty(): void {
    this.dirty.structure = true;
    this.dirty.content = true;
  }
}
