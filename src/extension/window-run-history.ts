/**
 * The window's run history: the engine's run log in the workspace storage (`runs/`), which the task
 * manager loads at activation and follows from then on, which keeps the conversations follow-ups and
 * Resume go on with, and which removes runs older than `agentTeam.historyRetentionDays`. A window that
 * kept its history the earlier way (`task-history.json`, `conversations/`) still shows it and can still
 * follow it up: those files are read, never written again, and go with the next Clear History.
 * Run logs are signed with the user's key (run-log-key.ts), so Resume and Apply can tell a run this
 * window's Agent Team wrote from one that was put there (foreign-runs.ts).
 */
import { homedir } from 'node:os';
import { rm } from 'node:fs/promises';
import nodePath from 'node:path';
import {
  type ChangeSetRegistry,
  type Clock,
  type ConversationStore,
  createSequentialIds,
  errorMessage,
  FileConversationStore,
  idsAfter,
  isTerminal,
  JsonFileTaskStore,
  MemoryConversationStore,
  openSignedRunLog,
  type PersistedHistory,
  type RestorePoint,
  type RunContents,
  type RunLog,
  type RunSignature,
  type TaskManager,
  type TaskStore,
} from '../engine/index.js';

export interface WindowRunHistoryOptions {
  /** The workspace storage folder; undefined: nothing is kept beyond the window's life. */
  storage: string | undefined;
  retentionDays: number;
  clock: Clock;
  warn(message: string): void;
  /** Where the user's run-log key lives (`<home>/.agent-team/keys`). Default: the user's home. */
  home?: string;
}

export class WindowRunHistory {
  /** For the task manager: the earlier history file's tasks, then the run log's. */
  readonly store: TaskStore | undefined;
  readonly conversations: ConversationStore;
  private readonly runLog: Promise<RunLog | undefined>;
  private readonly legacyTasks: JsonFileTaskStore | undefined;
  /** Ids past every run the log holds, once it is open (tasks start only after the history is loaded). */
  private ids: (() => string) | undefined;
  private readonly beforeOpen = createSequentialIds();

  constructor(private readonly options: WindowRunHistoryOptions) {
    const storage = options.storage;
    if (storage === undefined) {
      this.runLog = Promise.resolve(undefined);
      this.conversations = new MemoryConversationStore();
      return;
    }
    this.runLog = openSigned(nodePath.join(storage, 'runs'), options).then(
      (log) => {
        this.ids = idsAfter(log);
        return log;
      },
      (error: unknown) => {
        options.warn(`The run history cannot be kept (${errorMessage(error)}): runs last as long as the window.`);
        return undefined;
      },
    );
    this.legacyTasks = new JsonFileTaskStore(nodePath.join(storage, 'task-history.json'), { onWarning: options.warn });
    const legacyConversations = new FileConversationStore(nodePath.join(storage, 'conversations'));
    const memory = new MemoryConversationStore();
    this.store = { load: () => this.load() };
    this.conversations = {
      save: async (key, messages) => {
        const log = await this.runLog;
        await (log ? log.conversations.save(key, messages) : memory.save(key, messages));
      },
      load: async (key) =>
        (await (await this.runLog)?.conversations.load(key)) ?? (await legacyConversations.load(key)) ?? (await memory.load(key)),
    };
  }

  /**
   * For the task manager: no new task takes the id of a run the log holds, loaded or not (the window
   * loads only the newest runs; the manager itself skips the ids it has).
   */
  readonly generateId = (): string => (this.ids ?? this.beforeOpen)();

  /** Follows the manager's events and the proposals from now on (before the first task starts). */
  async attach(taskManager: TaskManager, changes: ChangeSetRegistry): Promise<void> {
    const log = await this.runLog;
    log?.attach(taskManager);
    log?.attachChanges(changes);
  }

  /** Everything a run's file holds (Resume reads its conversations); undefined for a run not kept. */
  async read(runId: string): Promise<RunContents | undefined> {
    return (await this.runLog)?.read(runId);
  }

  /** Whether the run's file verifies as this user's own; undefined for a run not kept. */
  async signatureOf(runId: string): Promise<RunSignature | undefined> {
    return (await this.runLog)?.signatureOf(runId);
  }

  /** Appends a restore point (an accept's or an undo's) to the run's log; false when it is not kept (no log). */
  async recordRestorePoint(runId: string, point: RestorePoint): Promise<boolean> {
    return (await (await this.runLog)?.recordRestorePoint(runId, point)) ?? false;
  }

  /** The run a task belongs to, as the log knows it; undefined without a log. */
  async runOf(taskId: string): Promise<string | undefined> {
    return (await this.runLog)?.runOf(taskId);
  }

  /** Clear History: these runs' files, and the earlier history files, which hold only finished runs. */
  async forget(runIds: readonly string[]): Promise<void> {
    await (await this.runLog)?.forget(runIds);
    const storage = this.options.storage;
    if (storage === undefined) return;
    await rm(nodePath.join(storage, 'task-history.json'), { force: true });
    await rm(nodePath.join(storage, 'conversations'), { recursive: true, force: true });
  }

  /** Writes what is pending (the window is closing). */
  async close(): Promise<void> {
    await (await this.runLog)?.close();
  }

  private async load(): Promise<PersistedHistory> {
    const legacy = (await this.legacyTasks?.load())?.tasks ?? [];
    const log = await this.runLog;
    const logged = (await log?.load())?.tasks ?? [];
    // Unfinished in the log, and this window runs nothing yet: the window that ran them is gone.
    const unfinished = logged.filter((persisted) => !isTerminal(persisted.task.status)).map((persisted) => persisted.task);
    if (unfinished.length > 0) log?.recordInterrupted(unfinished, this.options.clock.now());
    return { version: 1, tasks: [...legacy, ...logged] };
  }
}

/** The run log of `directory`, signing with the user's key; without one (said once), every run reads as foreign. */
function openSigned(directory: string, options: WindowRunHistoryOptions): Promise<RunLog> {
  return openSignedRunLog({
    directory,
    home: options.home ?? homedir(),
    onWarning: options.warn,
    unsignedConsequence: 'Runs are kept unsigned, and Resume and Apply to Branch ask before going on with any.',
    clock: options.clock,
    retention: { maxAgeDays: options.retentionDays },
  });
}
