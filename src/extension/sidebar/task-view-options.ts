/** What the sidebar host is given: the engine's parts it shows, and how it batches, logs and acts. */
import type * as vscode from 'vscode';
import type { ChangeSetRegistry, Clock, CommandIsolation, TaskManager } from '../../engine/index.js';
import type { RunChecks, WebviewMessage } from '../../shared/protocol.js';
import type { SnapshotPartOptions } from '../../shared/protocol-snapshot.js';
import type { SecretRedactor } from '../redaction.js';
import type { SetupService } from '../setup-state.js';
import type { UndoneFiles } from '../undone-files.js';

export interface TaskViewOptions {
  extensionUri: vscode.Uri;
  taskManager: TaskManager;
  changes: ChangeSetRegistry;
  /** Accepted files undone since (listed `undone`). Default: none. */
  undoneFiles?: UndoneFiles;
  setup: Pick<SetupService, 'state' | 'onDidChange' | 'probeOnce'>;
  /** Resolves once the task history is loaded; the first snapshot waits for it. */
  historyLoaded: Promise<void>;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  redactor: SecretRedactor;
  /** Handles the webview's actions (everything but `ready`, `select-task` and `log`). */
  onAction: (message: WebviewMessage) => void | Promise<void>;
  /** Times the batching. Default `systemClock`. */
  clock?: Clock;
  /** Least time between two batches. Default 16 ms, one frame (outbox.ts). */
  flushDelayMs?: number;
  /** How a long history is split into messages; see `SnapshotPartOptions` for the defaults. */
  snapshotParts?: SnapshotPartOptions;
  /** The commands tasks wait to run: how each would run, for the approval region. Default: none. */
  commandApprovals?: {
    isolationOf(taskId: string): CommandIsolation | undefined;
    onChange(listener: (taskId: string) => void): () => void;
  };
  /** Runs' checks (issue 40): sent after each snapshot, then as they change. Default: none. */
  checks?: { all(): RunChecks[]; onChange(listener: (run: RunChecks) => void): () => void };
}
