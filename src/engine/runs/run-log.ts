/**
 * The run log: the task history and the agents' conversations as one append-only JSON Lines file per run
 * (a root task and everything under it; the run's id is the root's), written as the task manager's
 * events happen, read back a run at a time, with an index and retention. It replaces the history file
 * rewritten whole at every save and the conversation files written whole: what a save costs no longer
 * grows with the history (benchmark B14), and a crash loses at most the lines of the turn under way.
 *
 * The hosts open one per directory (the CLI: `.agent-team/runs` in the workspace; the extension: its
 * workspace storage), attach it to the task manager and the change-set registry, and hand it to the
 * manager as its `store` (it has no `save`: it follows the events instead) and to the team as its
 * conversation store.
 */
import { lstat, mkdir } from 'node:fs/promises';
import type { ChangeSetRegistry } from '../changes/registry.js';
import { type RestorePoint, recordsOf } from './checkpoints/restore-point.js';
import { type Clock, systemClock } from '../clock.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import type { ModelMessage } from '../model/types.js';
import type { PersistedHistory, PersistedTask, TaskStore } from '../tasks/task-store.js';
import type { TranscriptArchive } from '../tasks/transcript-archive.js';
import type { TaskEvent, TaskSnapshot } from '../tasks/types.js';
import { RunIndex, type RunSummary } from './run-index.js';
import type { RunSigning } from './run-log-key.js';
import type { RunSignature } from './run-log-signature.js';
import type { RunContents } from './run-log-reader.js';
import { type RunRecordType, safeRunId } from './run-log-records.js';
import { type RetentionOptions, resolveRetention } from './run-retention.js';
import { RunStorage } from './run-storage.js';
import { runTranscripts } from './run-transcripts.js';

export interface RunLogOptions {
  /** Where the run files and the index live; created if absent. Must not be a symbolic link. */
  directory: string;
  /** Hears about damaged lines, failed writes, records over the size cap. Default: `console.warn`. */
  onWarning?: (message: string) => void;
  /** Defaults: 30 days, no limit on the number of runs, 1 GiB. */
  retention?: RetentionOptions;
  /** "Now" for retention and the index's times. Default: `systemClock`. */
  clock?: Clock;
  /** How many of the newest runs `load()` brings back. Default 200. */
  loadRuns?: number;
  /**
   * The key that signs this folder's run logs (run-log-key.ts `runFolderSigning`), or why there is none.
   * Default: none, so lines go unsigned and every run reads as foreign.
   */
  signing?: RunSigning;
}

/** Transcript entries per task `load` hands the task manager at most (the most recent). */
const maxLoadedTranscriptEntries = 1000;
const historyRecords = new Set(['task', 'entry'] as const);

export class RunLog implements TaskStore {
  /**
   * `save(key, messages)` appends to the run `key` (a task id) belongs to, resolving once the record is held
   * (it is written with its task's end, or at once after it); `load(key)` reads that run's last one.
   */
  readonly conversations: ConversationStore;
  /** The task manager's transcript archive (run-transcripts.ts); `attach` hands it over. */
  readonly transcripts: TranscriptArchive;
  private readonly detachers = new Set<() => void>();

  private constructor(
    private readonly storage: RunStorage,
    private readonly loadRuns: number,
  ) {
    this.conversations = { save: (key, messages) => this.keepConversation(key, messages), load: (key) => this.keptConversation(key) };
    this.transcripts = runTranscripts(storage);
  }

  /** Creates the directory, reads the index and applies retention. Rejects when the directory is a link or cannot be made. */
  static async open(options: RunLogOptions): Promise<RunLog> {
    const warn = options.onWarning ?? ((message: string) => console.warn(message));
    await mkdir(options.directory, { recursive: true });
    const status = await lstat(options.directory);
    if (status.isSymbolicLink() || !status.isDirectory())
      throw new Error(
        `${options.directory} is ${status.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; the run log is not kept there.`,
      );
    const index = await RunIndex.read(options.directory, warn);
    const storage = new RunStorage(
      options.directory,
      index,
      warn,
      options.clock ?? systemClock,
      resolveRetention(options.retention),
      options.signing ?? { problem: 'no key was given to sign run logs with' },
    );
    await storage.prune();
    return new RunLog(storage, options.loadRuns ?? 200);
  }

  get directory(): string {
    return this.storage.directory;
  }

  /**
   * Follows the manager's events, and becomes its transcript archive when it has one (`archiveTranscripts`):
   * ended tasks' transcripts then live in the run files, not the heap. Returns the function that stops both.
   */
  attach(taskManager: {
    onEvent(listener: (event: TaskEvent) => void): () => void;
    archiveTranscripts?(archive: TranscriptArchive): () => void;
  }): () => void {
    const unsubscribe = taskManager.onEvent(this.storage.recorder.onEvent);
    const stopArchiving = taskManager.archiveTranscripts?.(this.transcripts);
    return this.keepDetacher(() => {
      unsubscribe();
      stopArchiving?.();
    });
  }

  /** Records each task's proposals as they change (once per write of its run). */
  attachChanges(registry: ChangeSetRegistry): () => void {
    return this.keepDetacher(
      registry.onEvent((event) => {
        // Overlaps are not worth a record: a restored set has them recomputed as it joins a registry, and
        // one edit to a file that ten tasks propose for would otherwise write all ten sets, whole files
        // each, on the event loop (B15 in docs/performance.md).
        if (event.type === 'change-overlap') return;
        const runId = this.runOf(event.taskId);
        if (!runId) return;
        this.storage.changed.note(runId, event.taskId, registry);
        // A decision on an ended task's proposals (the review) has no turn or end to ride with.
        if (!this.storage.recorder.hasOpenTasks(runId)) this.storage.writeSoon(runId);
      }),
    );
  }

  /** TaskStore: the newest `loadRuns` runs, oldest first, each task with its most recent 1,000 transcript entries. */
  async load(): Promise<PersistedHistory> {
    await this.flush();
    const newest = this.storage.index.newest(this.loadRuns).sort((a, b) => a.createdAt - b.createdAt);
    const tasks: PersistedTask[] = [];
    // Not checked: this is the list a window shows, not a run anyone goes on with (read or signatureOf check that).
    for (const run of newest)
      tasks.push(
        ...((await this.storage.read(run.runId, { maxTranscriptEntries: maxLoadedTranscriptEntries, only: historyRecords }, false))
          ?.tasks ?? []),
      );
    return { version: 1, tasks };
  }

  /** One run's tasks only, as `load` gives them: what continuing or resuming that run needs. */
  async loadRun(runId: string): Promise<PersistedHistory> {
    const contents = await this.storage.read(runId, { maxTranscriptEntries: maxLoadedTranscriptEntries, only: historyRecords });
    return { version: 1, tasks: contents?.tasks ?? [] };
  }

  /**
   * Tasks the log shows unfinished that no process runs any more (the window that ran them crashed): written
   * as `interrupted` (reason `interrupted`, ended `now`), so the file and the index say what the task
   * manager shows. Only a host that knows nobody else runs them (the extension: one window per workspace)
   * calls this.
   */
  recordInterrupted(tasks: readonly TaskSnapshot[], now: number): void {
    for (const task of tasks)
      this.storage.recorder.onEvent({
        type: 'task-end',
        task: { ...task, status: 'interrupted', stopReason: { kind: 'interrupted' }, endedAt: now },
      });
  }

  /**
   * Appends a restore point (an accept's or an undo's: checkpoints/) to the run's file, signed as every
   * line is, and waits until it is on disk (fsynced): the user is told the change can be undone only
   * once it can. False when a line was refused (an unsafe run id, over the line cap: said through the warning).
   */
  async recordRestorePoint(runId: string, point: RestorePoint): Promise<boolean> {
    let kept = true;
    for (const record of recordsOf(point)) kept = this.storage.writer.add(runId, record) && kept;
    await this.storage.writeRun(runId, { sync: true });
    return kept;
  }

  /** What the run's file holds (after writing what this process holds for it), of the record types `only` names (default: all); undefined for an unknown run. */
  read(runId: string, options: { only?: ReadonlySet<RunRecordType> } = {}): Promise<RunContents | undefined> {
    return this.storage.read(runId, options);
  }

  /** Whether the run's file verifies as this user's own (its records are skipped unparsed); undefined for an unknown run. */
  async signatureOf(runId: string): Promise<RunSignature | undefined> {
    return (await this.storage.read(runId, { only: new Set() }))?.signature;
  }

  /** The run a task belongs to: from what this process saw start, else the index. */
  runOf(taskId: string): string | undefined {
    return this.storage.recorder.runOf(taskId);
  }

  /** The index, newest first. */
  runs(): RunSummary[] {
    return [...this.storage.index.oldestFirst()].reverse().map((run) => ({ ...run, taskIds: [...run.taskIds] }));
  }

  /** Every task id the index lists, without copying its runs as `runs()` does (a new task's id must be none of them). */
  taskIds(): IterableIterator<string> {
    return this.storage.index.taskIds();
  }

  /** Deletes these runs (Clear History); a run with a task this process still runs is kept. */
  async forget(runIds: readonly string[]): Promise<void> {
    for (const runId of runIds) {
      if (safeRunId.test(runId) && !this.storage.recorder.hasOpenTasks(runId)) await this.storage.removeRun(runId);
    }
    await this.storage.index.writePending();
  }

  /** Writes everything held, and waits for retention under way. */
  flush(): Promise<void> {
    return this.storage.flush();
  }

  /** Stops following the events, flushes and closes its files. */
  async close(): Promise<void> {
    for (const detach of [...this.detachers]) detach();
    await this.storage.close();
  }

  private keepDetacher(unsubscribe: () => void): () => void {
    const detach = () => {
      unsubscribe();
      this.detachers.delete(detach);
    };
    this.detachers.add(detach);
    return detach;
  }

  private async keepConversation(key: string, messages: readonly ModelMessage[]): Promise<void> {
    const runId = this.runOf(key);
    if (!runId) return this.storage.warn(`The conversation of task ${key} was not kept: no run is known for that task.`);
    this.storage.writer.add(runId, { type: 'kept-conversation', key, messages: [...messages] });
    // Saved as its task ends, it goes out with the end; saved later, on its own.
    if (!this.storage.recorder.hasOpenTasks(runId)) this.storage.writeSoon(runId);
  }

  private async keptConversation(key: string): Promise<ModelMessage[] | undefined> {
    const runId = this.runOf(key);
    if (!runId) return undefined;
    return (await this.storage.read(runId, { only: new Set(['kept-conversation']) }))?.keptConversations.get(key);
  }
}
