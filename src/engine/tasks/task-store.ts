/**
 * Where task history lives between sessions. The manager hands the store a whole history at a time (on
 * task start and end, on clear and on close; never per text delta) and reads it back once with `load`.
 */
import type { TranscriptEntry } from '../agent/types.js';
import type { TaskSnapshot } from './types.js';

export interface PersistedTask {
  task: TaskSnapshot;
  /** The most recent entries, at most the manager's `maxTranscriptEntries`. */
  transcript: TranscriptEntry[];
  /** How many older entries were dropped to keep that cap (0 when none). */
  droppedTranscriptEntries: number;
  /** For a task still queued or running when saved: its last text, so an interrupted task keeps it. */
  partialOutput?: string;
}

export interface PersistedHistory {
  version: 1;
  /** In creation order: a parent always comes before its children. */
  tasks: PersistedTask[];
}

export interface TaskStore {
  /** The saved history; an empty one when there is none or it cannot be read. Should not throw. */
  load(): Promise<PersistedHistory>;
  /**
   * Replaces the saved history. May reject (the manager reports it through `onWarning`). A store that
   * keeps the history as it happens (the run log, which follows the manager's events) has none: the
   * manager then never builds the whole history to hand over.
   */
  save?(history: PersistedHistory): Promise<void>;
}

export function emptyHistory(): PersistedHistory {
  return { version: 1, tasks: [] };
}

/** Keeps the history in memory (a deep copy, so later changes to the objects passed in don't leak in). */
export class InMemoryTaskStore implements TaskStore {
  private history: PersistedHistory;
  /** Number of completed `save` calls. */
  saves = 0;

  constructor(initial: PersistedHistory = emptyHistory()) {
    this.history = structuredClone(initial);
  }

  async load(): Promise<PersistedHistory> {
    return structuredClone(this.history);
  }

  async save(history: PersistedHistory): Promise<void> {
    this.history = structuredClone(history);
    this.saves++;
  }

  /** The last saved history (a copy). */
  get saved(): PersistedHistory {
    return structuredClone(this.history);
  }
}
