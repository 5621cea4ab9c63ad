/**
 * B15's extension host window: what `AgentTeamHost` (src/extension/host.ts) wires for a window, built the
 * same way from the same classes, in this process: the run history (`WindowRunHistory` over a real run-log
 * directory), the task manager loading it, the change-set registry and its saved file (`ChangeSetStore`),
 * the sidebar (`TaskViewProvider` with its outbox), the context keys and badge (`ActivityContext`), the
 * status bar item (`RunningTasksStatus`), and a team over that task manager with the real file tools.
 *
 * The webview is the extension tests' `FakeWebviewView` with VS Code's own sending: the extension host's
 * `postMessage` serializes each message with `JSON.stringify` before it crosses to the renderer, so that
 * is done here too (and counted), on the same loop. Left out: the notifications at a run's end (they only
 * format a line) and the engine session's model setup (the team's models are B15's).
 */
import nodePath from 'node:path';
import type * as vscode from 'vscode';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { systemClock } from '../../src/engine/clock.js';
import type { Model } from '../../src/engine/model/types.js';
import { createWorkspaceToolbox } from '../../src/engine/file-tools/workspace-toolbox.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { ActivityContext } from '../../src/extension/activity-context.js';
import { ChangeSetStore } from '../../src/extension/change-store.js';
import { SecretRedactor } from '../../src/extension/redaction.js';
import { TaskViewProvider } from '../../src/extension/sidebar/task-view-provider.js';
import { RunningTasksStatus } from '../../src/extension/status-bar.js';
import { WindowRunHistory } from '../../src/extension/window-run-history.js';
import type { SetupState } from '../../src/shared/protocol.js';
import { Uri } from '../../test/extension/support/fake-basics.js';
import { FakeWebviewView } from '../../test/extension/support/fake-webview.js';
import { type BenchTeam, createBenchTeam } from '../support/team-fixture.js';

const setupState: SetupState = { modelConfigured: true, provider: 'anthropic', model: 'claude-sonnet-4-5', restricted: false };

export interface WindowOptions {
  /** The workspace storage folder (its `runs/` holds the history). */
  storage: string;
  /** The workspace folder the agents work in. */
  root: string;
  modelFor(role: string): Model;
  /** `agentTeam.maxConcurrentTasks`. */
  maxConcurrent: number;
}

export interface ExtensionWindow {
  bench: BenchTeam;
  changes: ChangeSetRegistry;
  sidebar: TaskViewProvider;
  view: FakeWebviewView;
  /** Resolves once the history is loaded (the task manager has its rows). */
  historyLoaded: Promise<void>;
  /** What went to the webview: messages, their JSON's length, and each message type's count. */
  sent: { messages: number; characters: number; byType: Map<string, number> };
  /** Warnings and errors the window's parts logged; a clean run has none. */
  problems: string[];
  close(): Promise<void>;
}

/** Builds the window as the host's constructor does and starts loading the history. */
export function openWindow(options: WindowOptions): ExtensionWindow {
  const problems: string[] = [];
  const warn = (message: string) => problems.push(message);
  const history = new WindowRunHistory({ storage: options.storage, retentionDays: 30, clock: systemClock, warn });
  const changes = new ChangeSetRegistry();
  const bench = createBenchTeam({
    modelFor: options.modelFor,
    toolbox: createWorkspaceToolbox({ workspace: new NodeWorkspace(options.root), changes }),
    taskManager: { maxConcurrent: options.maxConcurrent, store: history.store, generateId: history.generateId },
  });
  const taskManager = bench.taskManager;
  const changeStore = new ChangeSetStore(
    Uri.file(nodePath.join(options.storage, 'proposed-changes.json')) as unknown as vscode.Uri,
    changes,
    { onWarning: warn },
  );
  const historyLoaded = (async () => {
    await history.attach(taskManager, changes);
    await taskManager.load();
    await changeStore.load((taskId) => taskManager.get(taskId) !== undefined);
  })();
  const redactor = new SecretRedactor();
  redactor.add('sk-ant-bench-0123456789abcdef'); // the user's API key, as the host registers it
  const sidebar = new TaskViewProvider({
    extensionUri: Uri.file('/extension') as unknown as vscode.Uri,
    taskManager,
    changes,
    setup: { state: async () => setupState, onDidChange: () => ({ dispose: () => undefined }), probeOnce: () => undefined } as never,
    historyLoaded,
    log: { info: () => undefined, warn, error: warn },
    redactor,
    onAction: () => undefined,
  });
  const activity = new ActivityContext(taskManager, changes, (count) => sidebar.showBadge(count));
  void historyLoaded.then(() => activity.refresh());
  const status = new RunningTasksStatus(taskManager);
  const view = new FakeWebviewView();
  const sent = { messages: 0, characters: 0, byType: new Map<string, number>() };
  view.webview.postMessage = async (message: unknown) => {
    const json = JSON.stringify(message);
    sent.messages++;
    sent.characters += json.length;
    const type = (message as { type: string }).type;
    sent.byType.set(type, (sent.byType.get(type) ?? 0) + 1);
    return true;
  };
  sidebar.resolveWebviewView(view as unknown as vscode.WebviewView);
  return {
    bench,
    changes,
    sidebar,
    view,
    historyLoaded,
    sent,
    problems,
    async close() {
      sidebar.dispose();
      status.dispose();
      activity.dispose();
      await bench.close();
      await history.close();
      await changeStore.flush();
      changeStore.dispose();
    },
  };
}
