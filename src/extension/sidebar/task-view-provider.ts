/**
 * The sidebar host: serves the webview (`agentTeam.tasks`), validates everything it posts, answers
 * `ready` with a snapshot (in parts, newest delegations first: protocol-snapshot.ts), and forwards the
 * task manager's and the change sets' events, batched.
 * The view does not retain its context while hidden; each new webview posts `ready` and gets a fresh
 * snapshot.
 */
import * as vscode from 'vscode';
import {
  type ChangeSet,
  type Clock,
  DisposableStore,
  isTerminal,
  systemClock,
  type TaskEvent,
  type TaskSnapshot,
} from '../../engine/index.js';
import {
  type ChangeSummary,
  type HostMessage,
  parseHostMessage,
  parseWebviewMessage,
  type SetupState,
  type TaskDetail,
  toProtocolTask,
  toTaskDetail,
} from '../../shared/protocol.js';
import { snapshotPartMessage, splitSnapshotTasks } from '../../shared/protocol-snapshot.js';
import { changeSummaryOf } from '../change-summaries.js';
import { SidebarOutbox } from './outbox.js';
import { sidebarHtml } from './webview-document.js';
import { tasksViewId } from '../contribution-ids.js';
import type { TaskViewOptions } from './task-view-options.js';
export { tasksViewId };

export type { TaskViewOptions } from './task-view-options.js';

export class TaskViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  /** The number on the view's badge: tasks at work (0: none shown). */
  private badgeCount = 0;
  private readonly viewSubscriptions = new DisposableStore();
  private readonly subscriptions = new DisposableStore();
  private readonly outbox: SidebarOutbox;
  private readonly clock: Clock;
  private ready = false;
  private selectedTaskId: string | null = null;
  /** The selected task's detail as last sent, to send it again only when it changed. */
  private sentDetail: TaskDetail | undefined;
  /** Webview transcript index minus the manager's (they differ once old entries were dropped). */
  private transcriptOffset = 0;
  /** Bumped by each selection: a transcript read back from the run log goes out only if nothing was selected since. */
  private selection = 0;
  /** True while the selected task's transcript is being read back: its live entries wait for it. */
  private readingTranscript = false;
  private pendingReveal: string | undefined;
  /** Bumped by each snapshot and whenever the view goes: a snapshot going out in parts stops when it changes. */
  private snapshotGeneration = 0;
  /** True while a snapshot's parts are going out (the outbox is held). */
  private pacingSnapshot = false;

  constructor(private readonly options: TaskViewOptions) {
    this.clock = options.clock ?? systemClock;
    this.outbox = new SidebarOutbox({ post: (message) => this.post(message), clock: this.clock, flushDelayMs: options.flushDelayMs });
    this.subscriptions.addAll(
      options.taskManager.onEvent((event) => this.onTaskEvent(event)),
      options.changes.onEvent((event) => this.summaryChanged(event.taskId)),
      options.undoneFiles?.onChanged((taskIds) => taskIds.forEach((taskId) => this.summaryChanged(taskId))) ?? (() => undefined),
      // A command to approve came or went: the selected task's approval region says how it would run.
      options.commandApprovals?.onChange((taskId) => {
        const task = taskId === this.selectedTaskId && this.ready ? options.taskManager.get(taskId) : undefined;
        if (task) this.detailChanged(this.detailOf(task));
      }) ?? (() => undefined),
      // Rare (a few per run): straight out, except while a snapshot's parts go (its end sends them all).
      options.checks?.onChange((run) => {
        if (this.ready && !this.pacingSnapshot) this.post({ type: 'checks', runs: [run] });
      }) ?? (() => undefined),
    );
    this.subscriptions.add(options.setup.onDidChange((setup) => this.onSetup(setup)));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    const { extensionUri } = this.options;
    const webviewRoot = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot, vscode.Uri.joinPath(extensionUri, 'media')] };
    view.webview.html = sidebarHtml(view.webview, extensionUri);
    this.applyBadge();
    this.viewSubscriptions.addAll(
      view.webview.onDidReceiveMessage((data: unknown) => this.receive(data)),
      view.onDidDispose(() => {
        if (this.view === view) this.disposeView();
      }),
      // Nothing is posted to a hidden view (VS Code drops it, or keeps it queued for nobody); when it shows
      // again it gets one fresh snapshot.
      view.onDidChangeVisibility(() => {
        if (this.view !== view) return;
        if (view.visible) {
          void this.sendSnapshot();
        } else {
          this.ready = false;
          this.stopSnapshot();
          this.outbox.clear();
        }
      }),
    );
    this.options.setup.probeOnce();
  }

  /** The view's badge: how many tasks are at work (queued, running or waiting for the user). */
  showBadge(activeTasks: number): void {
    this.badgeCount = activeTasks;
    this.applyBadge();
  }

  private applyBadge(): void {
    if (!this.view) return;
    const count = this.badgeCount;
    this.view.badge =
      count > 0
        ? {
            value: count,
            tooltip: count === 1 ? vscode.l10n.t('1 Agent Team task at work') : vscode.l10n.t('{0} Agent Team tasks at work', count),
          }
        : undefined;
  }

  /** Shows the sidebar (without taking focus when it is already open) and selects the task. */
  async reveal(taskId?: string): Promise<void> {
    if (taskId !== undefined) this.pendingReveal = taskId;
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${tasksViewId}.focus`);
    this.sendPendingReveal();
  }

  /** Tells the composer of `taskId` that what the user wrote reached the task. */
  messageSent(taskId: string, outcome: 'answered' | 'delivered' | 'follow-up'): void {
    this.post({ type: 'message-sent', taskId, outcome });
  }

  /** After `clearHistory`: everything but `keptTaskIds` is gone. */
  historyCleared(keptTaskIds: string[]): void {
    if (!this.ready) return;
    // Parts still to come would bring the cleared rows back: a fresh snapshot replaces them all instead.
    if (this.pacingSnapshot) {
      void this.sendSnapshot();
      return;
    }
    this.outbox.flush();
    if (this.selectedTaskId !== null && !keptTaskIds.includes(this.selectedTaskId)) {
      this.selectedTaskId = null;
      this.sentDetail = undefined;
    }
    this.post({ type: 'history-cleared', keptTaskIds });
  }

  /** Handles one message from the webview; anything malformed or unknown is dropped and logged. */
  receive(data: unknown): void {
    const parsed = parseWebviewMessage(data);
    if (!parsed.message) {
      this.options.log.warn(`Sidebar: ${parsed.reason}`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'ready':
        void this.sendSnapshot();
        return;
      case 'select-task':
        this.select(message.taskId);
        return;
      case 'log':
        this.options.log[message.level](`Sidebar: ${message.message}`);
        return;
      default:
        Promise.resolve(this.options.onAction(message)).catch((error: unknown) => {
          this.options.log.error(`Sidebar action ${message.type} failed: ${error instanceof Error ? error.message : String(error)}`);
        });
    }
  }

  dispose(): void {
    this.disposeView();
    this.subscriptions.dispose();
  }

  private async sendSnapshot(): Promise<void> {
    this.ready = false;
    const generation = ++this.snapshotGeneration;
    const view = this.view;
    await this.options.historyLoaded;
    const setup = await this.options.setup.state();
    const current = () => this.view === view && generation === this.snapshotGeneration;
    if (!view || !current()) return;
    // Taken after the awaits: whatever happened meanwhile is in this snapshot, and what happens from now on
    // is queued in the outbox, held until the last part is out (a part must never overwrite a newer row).
    this.outbox.clear();
    this.outbox.hold();
    this.selectedTaskId = null;
    this.sentDetail = undefined;
    this.ready = true;
    const content = {
      now: this.clock.now(),
      changes: this.options.changes
        .list()
        .map((changeSet) => this.summaryOf(changeSet))
        .filter((summary) => summary.files.length > 0),
      setup,
    };
    const parts = splitSnapshotTasks(this.options.taskManager.list(), this.options.snapshotParts);
    // One part per turn of the event loop, which the extension host shares with every extension and the
    // editor: a thousand rows copied, redacted, checked and serialized at once held it for 40 ms (B15 in
    // docs/performance.md). The webview paints the first part before it handles the rest anyway.
    this.pacingSnapshot = true;
    try {
      for (const [index, part] of parts.entries()) {
        if (index > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        if (!current()) return;
        this.post(snapshotPartMessage(content, part.map(toProtocolTask), index, index === parts.length - 1));
      }
    } finally {
      if (current()) {
        this.pacingSnapshot = false;
        this.outbox.release();
        const checks = this.options.checks?.all() ?? [];
        if (checks.length > 0) this.post({ type: 'checks', runs: checks });
      }
    }
    this.sendPendingReveal();
  }

  private select(taskId: string | null): void {
    this.outbox.flush();
    this.outbox.dropStream();
    this.selectedTaskId = taskId;
    this.sentDetail = undefined;
    this.selection++;
    this.readingTranscript = false;
    if (taskId === null || !this.ready) return;
    const task = this.options.taskManager.get(taskId);
    if (!task) {
      this.selectedTaskId = null;
      return;
    }
    this.sentDetail = this.detailOf(task);
    this.post({ type: 'task-detail', ...this.sentDetail });
    if (isTerminal(task.status)) void this.sendEndedTranscript(taskId);
    else this.sendLiveTranscript(taskId, task.transcriptLength);
  }

  private sendLiveTranscript(taskId: string, transcriptLength: number): void {
    const entries = this.options.taskManager.transcript(taskId);
    this.transcriptOffset = entries.length - transcriptLength;
    this.post({ type: 'transcript', taskId, index: 0, entries });
    // The turn under way is not in the transcript yet: its text so far follows as one delta.
    const streaming = this.options.taskManager.streamingText(taskId);
    if (streaming !== '') this.post({ type: 'text-delta', taskId, text: streaming });
  }

  /** An ended task's transcript may be in the run log rather than in memory: it is read back first. */
  private async sendEndedTranscript(taskId: string): Promise<void> {
    const selection = this.selection;
    this.readingTranscript = true;
    const entries = await this.options.taskManager.readTranscript(taskId).catch((error: unknown) => {
      this.options.log.warn(`Could not read the transcript of task ${taskId}: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    });
    if (selection !== this.selection || this.selectedTaskId !== taskId || !this.ready) return;
    this.readingTranscript = false;
    const task = this.options.taskManager.get(taskId);
    if (!task) return;
    // Resumed while it was read: its transcript is in memory again, and growing.
    if (!isTerminal(task.status)) return this.sendLiveTranscript(taskId, task.transcriptLength);
    this.transcriptOffset = entries.length - task.transcriptLength;
    this.post({ type: 'transcript', taskId, index: 0, entries });
  }

  private onTaskEvent(event: TaskEvent): void {
    if (!this.ready) return;
    switch (event.type) {
      case 'task-start':
      case 'task-update':
      case 'task-end':
        this.outbox.task(event.task);
        if (event.task.id === this.selectedTaskId) this.detailChanged(this.detailOf(event.task));
        return;
      case 'task-transcript':
        if (event.taskId === this.selectedTaskId && !this.readingTranscript)
          this.outbox.transcript(event.taskId, event.index + this.transcriptOffset, event.entry);
        return;
      case 'task-text-delta':
        if (event.taskId === this.selectedTaskId && !this.readingTranscript) this.outbox.textDelta(event.taskId, event.text);
        return;
    }
  }

  /** The task's detail, with how the command it waits to run would run. */
  private detailOf(task: TaskSnapshot): TaskDetail {
    const isolation = this.options.commandApprovals?.isolationOf(task.id);
    return toTaskDetail(task, isolation ? { summary: isolation.summary, offerAlways: isolation.offerAlways } : undefined);
  }

  private detailChanged(detail: TaskDetail): void {
    const sent = this.sentDetail;
    const sameApproval =
      sent?.commandApproval?.summary === detail.commandApproval?.summary &&
      sent?.commandApproval?.offerAlways === detail.commandApproval?.offerAlways;
    if (sent && sent.prompt === detail.prompt && sent.output === detail.output && sameApproval) return;
    this.sentDetail = detail;
    this.outbox.detail(detail);
  }

  private summaryChanged(taskId: string): void {
    if (!this.ready) return;
    const changeSet = this.options.changes.get(taskId);
    this.outbox.changeSummary(changeSet ? this.summaryOf(changeSet) : { taskId, files: [], added: 0, removed: 0, pending: 0 });
  }

  private summaryOf(changeSet: ChangeSet): ChangeSummary {
    return changeSummaryOf(changeSet, (path) => this.options.undoneFiles?.isUndone(changeSet.taskId, path) === true);
  }

  /** A change set was removed (the registry does not announce removals). */
  changeSetRemoved(taskId: string): void {
    if (this.ready) this.outbox.changeSummary({ taskId, files: [], added: 0, removed: 0, pending: 0 });
  }

  private onSetup(setup: SetupState): void {
    if (this.ready) this.post({ type: 'setup-state', setup });
  }

  private sendPendingReveal(): void {
    // While a snapshot is going out the task may be in a part still to come: its last part reveals it.
    if (!this.ready || this.pacingSnapshot || this.pendingReveal === undefined) return;
    const taskId = this.pendingReveal;
    this.pendingReveal = undefined;
    this.outbox.flush();
    if (this.options.taskManager.get(taskId)) this.post({ type: 'reveal-task', taskId });
  }

  /** Every message leaves through here: secrets redacted, then checked against the protocol. */
  private post(message: HostMessage): void {
    const view = this.view;
    if (!view) return;
    const parsed = parseHostMessage(this.options.redactor.redactValue(message));
    if (!parsed.message) {
      this.options.log.error(`Sidebar: not sending an invalid ${message.type} message: ${parsed.reason}`);
      return;
    }
    void view.webview.postMessage(parsed.message);
  }

  /** A snapshot going out in parts stops before its next part. */
  private stopSnapshot(): void {
    this.snapshotGeneration++;
    this.pacingSnapshot = false;
  }

  private disposeView(): void {
    this.viewSubscriptions.clear();
    this.view = undefined;
    this.ready = false;
    this.stopSnapshot();
    this.selectedTaskId = null;
    this.sentDetail = undefined;
    this.outbox.clear();
  }
}
