/**
 * A snapshot goes to the webview one part per turn of the extension host's event loop (B15 in
 * docs/performance.md): nothing else about the rows may come between its parts, and a snapshot whose
 * view went away, or whose rows were cleared, stops.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { ChangeSetRegistry } from '../../src/engine/changes/index.js';
import { TaskManager } from '../../src/engine/tasks/index.js';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { SecretRedactor } from '../../src/extension/redaction.js';
import { TaskViewProvider } from '../../src/extension/sidebar/task-view-provider.js';
import type { HostMessage, SetupState } from '../../src/shared/protocol.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { Uri } from './support/fake-basics.js';
import { FakeWebviewView } from './support/fake-webview.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const setupState: SetupState = { modelConfigured: true, provider: 'openai', model: 'gpt-5-mini', restricted: false };

let clock: ManualClock;
let manager: TaskManager;
let provider: TaskViewProvider;
let view: FakeWebviewView;
let works: StagedWork[];

beforeEach(async () => {
  clock = new ManualClock();
  manager = new TaskManager({ clock });
  works = [];
  for (const description of ['Oldest', 'Middle', 'Newest']) {
    const work = new StagedWork();
    void manager.start({ role: 'researcher', description, prompt: description, mode: 'background', work: work.work });
    await work.started;
    works.push(work);
    await clock.advance(10); // distinct creation times
  }
  provider = new TaskViewProvider({
    extensionUri: Uri.file('/extension') as unknown as vscode.Uri,
    taskManager: manager,
    changes: new ChangeSetRegistry(),
    setup: { state: async () => setupState, onDidChange: () => ({ dispose: () => undefined }), probeOnce: () => undefined } as never,
    historyLoaded: Promise.resolve(),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    redactor: new SecretRedactor(),
    onAction: () => undefined,
    clock,
    snapshotParts: { firstPartTasks: 1, partTasks: 1 },
  });
  view = new FakeWebviewView();
  provider.resolveWebviewView(view as unknown as vscode.WebviewView);
});

afterEach(async () => {
  provider.dispose();
  for (const work of works) work.complete('');
  const closing = manager.close();
  await clock.advance(5_000);
  await closing;
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const summary = () =>
  view.posted.map((message) => {
    const typed = message as HostMessage;
    return [typed.type, 'tasks' in typed ? typed.tasks.map((task) => `${task.description} ${task.status}`) : []];
  });

describe('a snapshot in parts', () => {
  it('sends one part per turn of the event loop, and what changed meanwhile only after the last', async () => {
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    expect(summary()).toEqual([['snapshot', ['Newest running']]]);
    works[0].complete('done');
    await flushMicrotasks();
    await clock.advance(50); // the outbox's delay: held, it sends nothing yet
    await view.waitFor((message) => (message as { complete?: boolean }).complete === true);
    expect(summary()).toEqual([
      ['snapshot', ['Newest running']],
      ['snapshot-part', ['Middle running']],
      ['snapshot-part', ['Oldest running']],
      ['task-upsert', ['Oldest completed']],
    ]);
  });

  it('stops when the view is hidden, and a fresh one goes out when it shows again', async () => {
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    view.setVisible(false);
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    expect(summary().map(([type]) => type)).toEqual(['snapshot']);
    view.setVisible(true);
    await view.waitFor((message) => (message as { complete?: boolean }).complete === true);
    expect(summary().map(([type]) => type)).toEqual(['snapshot', 'snapshot', 'snapshot-part', 'snapshot-part']);
  });

  it('starts again when the history is cleared meanwhile, rather than bring cleared rows back', async () => {
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    provider.historyCleared([]);
    await view.waitFor((message) => (message as { complete?: boolean }).complete === true);
    expect(summary().map(([type]) => type)).toEqual(['snapshot', 'snapshot', 'snapshot-part', 'snapshot-part']);
  });
});
