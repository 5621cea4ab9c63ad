import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { ChangeSetRegistry } from '../../src/engine/changes/index.js';
import { RunLog } from '../../src/engine/runs/run-log.js';
import { TaskManager } from '../../src/engine/tasks/index.js';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { SecretRedactor } from '../../src/extension/redaction.js';
import { TaskViewProvider, type TaskViewOptions } from '../../src/extension/sidebar/task-view-provider.js';
import { type HostMessage, parseHostMessage, type SetupState, type WebviewMessage } from '../../src/shared/protocol.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { EventEmitter, Uri } from './support/fake-basics.js';
import { FakeWebviewView } from './support/fake-webview.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const setupState: SetupState = { modelConfigured: true, provider: 'openai', model: 'gpt-5-mini', restricted: false };

let clock: ManualClock;
let manager: TaskManager;
let changes: ChangeSetRegistry;
let logLines: string[];
let actions: WebviewMessage[];
let setupChanged: EventEmitter<SetupState>;
let provider: TaskViewProvider;
let view: FakeWebviewView;

beforeEach(() => {
  clock = new ManualClock();
  manager = new TaskManager({ clock });
  changes = new ChangeSetRegistry();
  logLines = [];
  actions = [];
  setupChanged = new EventEmitter<SetupState>();
  provider = new TaskViewProvider(providerOptions());
  view = new FakeWebviewView();
  provider.resolveWebviewView(view as unknown as vscode.WebviewView);
});

function providerOptions(): TaskViewOptions {
  const log = {
    info: (line: string) => logLines.push(`info ${line}`),
    warn: (line: string) => logLines.push(`warn ${line}`),
    error: (line: string) => logLines.push(`error ${line}`),
  };
  return {
    extensionUri: Uri.file('/extension') as unknown as vscode.Uri,
    taskManager: manager,
    changes,
    setup: { state: async () => setupState, onDidChange: setupChanged.event as unknown as vscode.Event<SetupState>, probeOnce: () => {} },
    historyLoaded: Promise.resolve(),
    log,
    redactor: new SecretRedactor(),
    onAction: (message) => {
      actions.push(message);
    },
    clock,
  };
}

afterEach(async () => {
  provider.dispose();
  // Work still waiting is stopped; the manager gives it its grace period on the manual clock.
  const closing = manager.close();
  await clock.advance(5_000);
  await closing;
});

async function ready(): Promise<void> {
  view.send({ type: 'ready' });
  await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
}

function start(description: string): StagedWork {
  const work = new StagedWork();
  void manager.start({ role: 'researcher', description, prompt: description, mode: 'background', work: work.work });
  return work;
}

describe('messages from the webview', () => {
  it('drops and logs malformed or unknown messages without acting on them', async () => {
    await ready();
    const posted = view.posted.length;
    const bad: unknown[] = [
      'ready',
      null,
      { type: 'no-such-message' },
      { type: 'stop-task' },
      { type: 'stop-task', taskId: '' },
      { type: 'ready', extra: true },
      { type: 'accept-file', taskId: 't1' },
      { type: 'open-link', url: 'javascript:alert(1)' },
      { type: 'open-link', url: 'file:///etc/passwd' },
      { type: 'run-command', command: 'workbench.action.terminal.new' },
      { type: 'run-command', command: 'agentTeam.delegate', args: ['x'] },
    ];
    for (const message of bad) view.send(message);
    await flushMicrotasks();
    expect(actions).toEqual([]);
    expect(view.posted.length).toBe(posted);
    const dropped = logLines.filter((line) => line.startsWith('warn Sidebar: dropped'));
    expect(dropped).toHaveLength(bad.length);
    expect(dropped.join('\n')).toContain('no-such-message');
  });

  it('hands valid actions over, and logs what the webview reports', async () => {
    await ready();
    view.send({ type: 'stop-task', taskId: 't1' });
    view.send({ type: 'resume-run', taskId: 't1' });
    view.send({ type: 'run-command', command: 'agentTeam.setApiKey' });
    view.send({ type: 'log', level: 'error', message: 'render failed' });
    await flushMicrotasks();
    expect(actions).toEqual([
      { type: 'stop-task', taskId: 't1' },
      { type: 'resume-run', taskId: 't1' },
      { type: 'run-command', command: 'agentTeam.setApiKey' },
    ]);
    expect(logLines).toContain('error Sidebar: render failed');
  });
});

describe('messages to the webview', () => {
  it('sends nothing before ready, then one snapshot with everything that happened meanwhile', async () => {
    const first = start('Find the parser');
    await first.started;
    await clock.advance(1_000);
    expect(view.posted).toEqual([]);
    await ready();
    expect(view.posted).toHaveLength(1);
    const snapshot = view.posted[0] as HostMessage & { type: 'snapshot' };
    expect(snapshot.tasks.map((task) => [task.description, task.status])).toEqual([['Find the parser', 'running']]);
    expect(snapshot.setup).toEqual(setupState);
    first.complete('done');
  });

  it('sends a long history in parts, newest delegations first, all of them before anything else', async () => {
    const works: StagedWork[] = [];
    for (const description of ['Oldest', 'Middle', 'Newest']) {
      works.push(start(description));
      await works[works.length - 1].started;
      await clock.advance(10); // distinct creation times
    }
    const parted = new TaskViewProvider({ ...providerOptions(), snapshotParts: { firstPartTasks: 1, partTasks: 1 } });
    const partedView = new FakeWebviewView();
    parted.resolveWebviewView(partedView as unknown as vscode.WebviewView);
    try {
      partedView.send({ type: 'ready' });
      await partedView.waitFor((message) => (message as { complete?: boolean }).complete === true);
      works[0].complete('oldest done');
      await clock.advance(50);
      expect(
        partedView.posted.map((message) => {
          const typed = message as HostMessage;
          return [
            typed.type,
            'tasks' in typed ? typed.tasks.map((task) => task.description) : [],
            'complete' in typed ? typed.complete : undefined,
          ];
        }),
      ).toEqual([
        ['snapshot', ['Newest'], false],
        ['snapshot-part', ['Middle'], false],
        ['snapshot-part', ['Oldest'], true],
        ['task-upsert', ['Oldest'], undefined],
      ]);
      for (const message of partedView.posted) expect(parseHostMessage(message).reason).toBeUndefined();
    } finally {
      parted.dispose();
      works[1].complete('');
      works[2].complete('');
    }
  });

  it('sends prompt and output only for the selected task: on selection, then whenever its output changes', async () => {
    await ready();
    const selected = start('Selected');
    const other = start('Other');
    const context = await selected.started;
    await other.started;
    expect(JSON.stringify(view.posted)).not.toContain('"prompt"');
    view.send({ type: 'select-task', taskId: context.taskId });
    expect(view.posted.slice(-2).map((message) => (message as HostMessage).type)).toEqual(['task-detail', 'transcript']);
    expect(view.ofType('task-detail')).toEqual([{ type: 'task-detail', taskId: context.taskId, prompt: 'Selected' }]);

    context.reportUsage({ inputTokens: 5, outputTokens: 1 }); // an update that leaves the output as it is
    await clock.advance(50);
    expect(view.ofType('task-upsert').at(-1)).toMatchObject({
      tasks: [{ id: context.taskId, usage: { inputTokens: 5, outputTokens: 1 } }],
    });
    expect(view.ofType('task-detail')).toHaveLength(1);

    other.complete('not shown');
    await flushMicrotasks();
    await clock.advance(50);
    selected.complete('Final answer');
    await flushMicrotasks();
    await clock.advance(50);
    expect(view.ofType('task-detail')).toEqual([
      { type: 'task-detail', taskId: context.taskId, prompt: 'Selected' },
      { type: 'task-detail', taskId: context.taskId, prompt: 'Selected', output: 'Final answer' },
    ]);
    // Right after the task-upsert of the same flush, so the webview always has the task first.
    expect(view.posted.slice(-2)).toMatchObject([
      { type: 'task-upsert', tasks: [{ id: context.taskId, status: 'completed' }] },
      { type: 'task-detail', output: 'Final answer' },
    ]);
    expect(JSON.stringify(view.posted)).not.toContain('not shown');
  });

  it('batches task changes into one task-upsert per flush, with the latest snapshot of each task', async () => {
    await ready();
    const works = [start('One'), start('Two'), start('Three')];
    await Promise.all(works.map((work) => work.started));
    works[0].complete('first done');
    await flushMicrotasks();
    expect(view.ofType('task-upsert')).toEqual([]);
    await clock.advance(50);
    const upserts = view.ofType<HostMessage & { type: 'task-upsert' }>('task-upsert');
    expect(upserts).toHaveLength(1);
    expect(upserts[0].tasks.map((task) => [task.description, task.status])).toEqual([
      ['One', 'completed'],
      ['Two', 'running'],
      ['Three', 'running'],
    ]);
    works[1].complete('');
    works[2].complete('');
  });

  it('streams transcript and text only for the selected task, joined per flush', async () => {
    await ready();
    const selected = start('Selected');
    const other = start('Other');
    const context = await selected.started;
    const otherContext = await other.started;
    context.appendTranscript({ type: 'text', text: 'Plan' });
    view.send({ type: 'select-task', taskId: context.taskId });
    const transcript = view.ofType<HostMessage & { type: 'transcript' }>('transcript');
    expect(transcript).toEqual([{ type: 'transcript', taskId: context.taskId, index: 0, entries: [{ type: 'text', text: 'Plan' }] }]);
    context.appendText('Hel');
    context.appendText('lo');
    otherContext.appendText('not shown');
    context.appendTranscript({ type: 'notice', text: 'a notice' });
    await clock.advance(50);
    const deltas = view.ofType<HostMessage & { type: 'text-delta' }>('text-delta');
    expect(deltas).toEqual([{ type: 'text-delta', taskId: context.taskId, text: 'Hello' }]);
    expect(view.ofType('transcript').at(-1)).toEqual({
      type: 'transcript',
      taskId: context.taskId,
      index: 1,
      entries: [{ type: 'notice', text: 'a notice' }],
    });
    expect(JSON.stringify(view.posted)).not.toContain('not shown');
    selected.complete('');
    other.complete('');
  });

  it("sends a finished task's transcript read back from the run log, which holds it instead of the heap", async () => {
    const directory = await mkdtemp(nodePath.join(tmpdir(), 'agent-team-sidebar-runs-'));
    const runLog = await RunLog.open({ directory, onWarning: (message) => logLines.push(`warn ${message}`) });
    try {
      runLog.attach(manager);
      await ready();
      const work = start('Finished');
      const context = await work.started;
      context.appendTranscript({ type: 'text', text: 'Read it.' });
      work.complete('Read it.');
      await manager.wait(context.taskId);
      await manager.flush();
      expect(manager.transcript(context.taskId)).toEqual([]);
      view.send({ type: 'select-task', taskId: context.taskId });
      expect(await view.waitFor((message) => (message as HostMessage).type === 'transcript')).toEqual({
        type: 'transcript',
        taskId: context.taskId,
        index: 0,
        entries: [{ type: 'text', text: 'Read it.' }],
      });
      expect(logLines.filter((line) => line.startsWith('warn'))).toEqual([]);
    } finally {
      await runLog.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('sends nothing of a transcript read back after another task was selected', async () => {
    await ready();
    const work = start('Finished');
    const context = await work.started;
    context.appendTranscript({ type: 'text', text: 'first' });
    work.complete('first');
    await manager.wait(context.taskId);
    const running = start('Running');
    const runningContext = await running.started;
    view.send({ type: 'select-task', taskId: context.taskId });
    // Before the finished task's transcript is back, the user picks the running task.
    view.send({ type: 'select-task', taskId: runningContext.taskId });
    await flushMicrotasks();
    expect(view.ofType<HostMessage & { type: 'transcript' }>('transcript').map((message) => message.taskId)).toEqual([
      runningContext.taskId,
    ]);
    running.complete('');
  });

  it('catches a newly selected task up with the text its current turn has streamed so far', async () => {
    await ready();
    const work = start('Streaming');
    const context = await work.started;
    context.appendTranscript({ type: 'text', text: 'First turn.' });
    context.appendText('Second turn so f');
    view.send({ type: 'select-task', taskId: context.taskId });
    expect(view.ofType('transcript')).toEqual([
      { type: 'transcript', taskId: context.taskId, index: 0, entries: [{ type: 'text', text: 'First turn.' }] },
    ]);
    expect(view.ofType('text-delta')).toEqual([{ type: 'text-delta', taskId: context.taskId, text: 'Second turn so f' }]);
    work.complete('');
  });

  it('forwards setup changes and sends only messages the protocol accepts', async () => {
    await ready();
    setupChanged.fire({ ...setupState, restricted: true });
    start('Check');
    await clock.advance(50);
    expect(view.ofType('setup-state')).toEqual([{ type: 'setup-state', setup: { ...setupState, restricted: true } }]);
    for (const message of view.posted) expect(parseHostMessage(message).reason).toBeUndefined();
  });

  it('starts over when the view is closed and shown again: nothing is sent until the new webview is ready', async () => {
    await ready();
    view.dispose();
    const work = start('While hidden');
    await work.started;
    await clock.advance(50);
    const next = new FakeWebviewView();
    provider.resolveWebviewView(next as unknown as vscode.WebviewView);
    expect(next.posted).toEqual([]);
    next.send({ type: 'ready' });
    const snapshot = (await next.waitFor((message) => (message as HostMessage).type === 'snapshot')) as HostMessage & { type: 'snapshot' };
    expect(snapshot.tasks.map((task) => task.description)).toEqual(['While hidden']);
    expect(view.ofType('task-upsert')).toEqual([]);
    work.complete('');
  });
});
