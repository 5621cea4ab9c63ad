/**
 * A run's records folded into what they say: the latest snapshot per task with its transcript, each
 * agent's conversation as last recorded (a record replaces the conversation from its `from` on), the
 * tool results recorded after it, the kept conversations and the proposals (run-proposals-read.ts).
 * Records come in file order; a conversation record that starts past what is recorded (a line before it
 * was lost) leaves that conversation out, with a warning, until a record carries it whole again.
 */
import type { TranscriptEntry } from '../agent/types.js';
import type { ChangeSetSnapshot } from '../changes/types.js';
import { type RestorePoint, RestorePointsBeingRead } from './checkpoints/restore-point.js';
import type { ModelMessage } from '../model/types.js';
import type { PersistedTask } from '../tasks/task-store.js';
import { type TaskSnapshot, isTerminal } from '../tasks/types.js';
import type { RunRecord, ToolResultEntry } from './run-log-records.js';
import type { RunSignature } from './run-log-signature.js';
import { ProposalsBeingRead } from './run-proposals-read.js';

export interface RunContents {
  runId: string;
  /** The latest snapshot per task, in first-seen order (parents before children), with its transcript entries in index order. */
  tasks: PersistedTask[];
  /** Per task: its conversation as last recorded. */
  conversations: Map<string, ModelMessage[]>;
  /** Per task: the tool results recorded after its last conversation record (finished calls whose results no recorded conversation holds). */
  resultsAfterConversation: Map<string, ToolResultEntry[]>;
  /** The last kept conversation per key. */
  keptConversations: Map<string, ModelMessage[]>;
  /** The latest proposals per task, those not removed. */
  changeSets: ChangeSetSnapshot[];
  /** The run's finished restore points (its accepts and undos), oldest first. */
  restorePoints: RestorePoint[];
  /** Whether the run's file verifies as its user's own (run-log-signature.ts): a `foreign` run is neither resumed nor applied unless the user insists. */
  signature: RunSignature;
}

interface TaskBeingRead {
  task: TaskSnapshot | undefined;
  entries: Map<number, TranscriptEntry>;
  highestIndex: number;
  lastText: string | undefined;
}

export class RunContentsBuilder {
  private readonly tasks = new Map<string, TaskBeingRead>();
  private readonly conversations = new Map<string, ModelMessage[]>();
  private readonly brokenConversations = new Set<string>();
  private readonly results = new Map<string, ToolResultEntry[]>();
  private readonly kept = new Map<string, ModelMessage[]>();
  private readonly proposals: ProposalsBeingRead;
  private readonly restorePoints: RestorePointsBeingRead;

  constructor(
    private readonly runId: string,
    private readonly name: string,
    private readonly maxEntries: number,
    private readonly warn: (message: string) => void,
  ) {
    this.proposals = new ProposalsBeingRead(name, warn);
    this.restorePoints = new RestorePointsBeingRead((message) => warn(`${name}: ${message}`));
  }

  add(record: RunRecord, lineNumber: number): void {
    switch (record.type) {
      case 'task':
        return void (this.taskOf(record.task.id).task = record.task);
      case 'entry':
        return this.addEntry(record.taskId, record.index, record.entry);
      case 'conversation':
        return this.addConversation(record.taskId, record.from, record.messages, lineNumber);
      case 'kept-conversation':
        return void this.kept.set(record.key, record.messages);
      case 'compaction':
        // What a resume needs is the conversation record after it; the transcript's notice shows the summary.
        return;
      case 'changes':
        return this.proposals.addWhole(record.taskId, record.changeSet);
      case 'file-text':
        return this.proposals.addText(record, lineNumber);
      case 'proposals':
        return this.proposals.addByText(record.taskId, record.changeSet, lineNumber);
      case 'restore-file':
      case 'restore-point':
        return this.restorePoints.add(record);
    }
  }

  private taskOf(taskId: string): TaskBeingRead {
    let task = this.tasks.get(taskId);
    if (!task) {
      task = { task: undefined, entries: new Map(), highestIndex: -1, lastText: undefined };
      this.tasks.set(taskId, task);
    }
    return task;
  }

  private addEntry(taskId: string, index: number, entry: TranscriptEntry): void {
    const task = this.taskOf(taskId);
    task.entries.set(index, entry);
    if (index >= task.highestIndex) {
      task.highestIndex = index;
      if (entry.type === 'text') task.lastText = entry.text;
    }
    // Trimmed now and then rather than per entry: a long task's older entries never pile up.
    if (task.entries.size > 2 * this.maxEntries) {
      const lowest = task.highestIndex + 1 - this.maxEntries;
      for (const kept of task.entries.keys()) if (kept < lowest) task.entries.delete(kept);
    }
    if (entry.type === 'tool-result') {
      const results = this.results.get(taskId) ?? [];
      results.push(entry);
      this.results.set(taskId, results);
    }
  }

  private addConversation(taskId: string, from: number, messages: ModelMessage[], lineNumber: number): void {
    this.results.delete(taskId);
    const current = this.conversations.get(taskId) ?? (from === 0 ? [] : undefined);
    if (!current || from > current.length) {
      this.conversations.delete(taskId);
      if (!this.brokenConversations.has(taskId))
        this.warn(
          `${this.name}: line ${lineNumber} goes on with task ${taskId}'s conversation from message ${from}, but ${current?.length ?? 0} are recorded before it (a line is missing); that conversation is left out until it is recorded whole again`,
        );
      this.brokenConversations.add(taskId);
      return;
    }
    current.length = from;
    for (const message of messages) current.push(message);
    this.conversations.set(taskId, current);
  }

  build(signature: RunSignature): RunContents {
    const tasks: PersistedTask[] = [];
    for (const [taskId, read] of this.tasks) {
      if (read.task) tasks.push(persistedOf(read.task, read, this.maxEntries));
      else this.warn(`${this.name}: task ${taskId} has transcript entries but no task record; they were left out`);
    }
    return {
      runId: this.runId,
      tasks: parentsFirst(tasks),
      conversations: this.conversations,
      resultsAfterConversation: this.results,
      keptConversations: this.kept,
      changeSets: this.proposals.changeSets(),
      restorePoints: this.restorePoints.finished(),
      signature,
    };
  }
}

function persistedOf(snapshot: TaskSnapshot, read: TaskBeingRead, maxEntries: number): PersistedTask {
  const indexes = [...read.entries.keys()].sort((a, b) => a - b).slice(-maxEntries);
  const transcript = indexes.map((index) => read.entries.get(index) as TranscriptEntry);
  const transcriptLength = Math.max(snapshot.transcriptLength, read.highestIndex + 1);
  const persisted: PersistedTask = {
    task: { ...snapshot, transcriptLength },
    transcript,
    droppedTranscriptEntries: Math.max(0, transcriptLength - transcript.length),
  };
  // A task the file leaves unfinished (its process ended mid-run) keeps its last words as its output.
  if (!isTerminal(snapshot.status) && read.lastText !== undefined) persisted.partialOutput = read.lastText;
  return persisted;
}

/**
 * First-seen order is creation order, so parents come first already; a child seen before its parent (the
 * parent's first record was damaged) is held back until right after it.
 */
function parentsFirst(tasks: PersistedTask[]): PersistedTask[] {
  const present = new Set(tasks.map((persisted) => persisted.task.id));
  const placed = new Set<string>();
  const waiting = new Map<string, PersistedTask[]>();
  const ordered: PersistedTask[] = [];
  const place = (persisted: PersistedTask) => {
    ordered.push(persisted);
    placed.add(persisted.task.id);
    for (const child of waiting.get(persisted.task.id) ?? []) place(child);
    waiting.delete(persisted.task.id);
  };
  for (const persisted of tasks) {
    const parentId = persisted.task.parentId;
    if (parentId !== null && present.has(parentId) && !placed.has(parentId))
      waiting.set(parentId, [...(waiting.get(parentId) ?? []), persisted]);
    else place(persisted);
  }
  return ordered;
}
