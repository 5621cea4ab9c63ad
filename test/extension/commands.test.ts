import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { type HostMessage } from '../../src/shared/protocol.js';
import { hangingStream, type MockProviderServer, startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
import { Position, Selection, Uri } from './support/fake-basics.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;

beforeEach(async () => {
  server = await startMockProviderServer();
  extension = activateExtension({
    files: { 'src/dates.ts': 'export function parse(text: string) {\n  return new Date(text);\n}\n' },
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
  });
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

const finished = () => fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
const lastUserText = (index: number) => JSON.stringify(server.requests[index].body);

describe('Delegate Task', () => {
  it('asks who (the coordinator first, then each role with its description) and what, then starts in the background', async () => {
    server.enqueue(textTurn('Planned.'));
    fake.state.quickPickAnswers.push(({ items, options }) => {
      expect(options.title).toBe('Delegate Task: who should do it?');
      const roles = items.filter((item) => (item as { role?: string }).role !== undefined);
      expect(roles[0]).toMatchObject({ label: '$(organization) coordinator', description: 'default' });
      expect(roles.map((item) => (item as { role?: string }).role)).toEqual(['coordinator', 'researcher', 'reviewer', 'refactorer']);
      expect(roles.every((item) => typeof (item as { detail?: string }).detail === 'string')).toBe(true);
      return roles[0];
    });
    fake.state.inputBoxAnswers.push(() => 'Find where dates are parsed');
    const taskId = await extension.execute('agentTeam.delegate');
    expect(taskId).toMatch(/^t\d+$/);
    expect(fake.state.progress.map((entry) => entry.title)).toEqual(['Agent Team: Find where dates are parsed']);
    expect(fake.state.builtinCommands.map((entry) => entry.command)).toContain('agentTeam.tasks.focus');
    await finished();
    expect(server.requests[0].body).toMatchObject({ model: 'gpt-5-mini' });
    await flushMicrotasks();
    expect(fake.state.progress[0].done).toBe(true);
  });

  it('starts at once with a task string, without asking anything, on the role given as options', async () => {
    server.enqueue(textTurn('Found it.'));
    const taskId = await extension.execute('agentTeam.delegate', 'Find the parser', { role: 'researcher' });
    expect(fake.state.quickPicks).toEqual([]);
    expect(fake.state.inputBoxes).toEqual([]);
    await finished();
    expect(taskId).toBe('t1');
    expect(lastUserText(0)).toContain('Find the parser');
    expect(lastUserText(0)).toContain('You are a researcher');
  });

  it('refuses an unknown role with the roles there are', async () => {
    expect(await extension.execute('agentTeam.delegate', 'Do it', { role: 'astronaut' })).toBeUndefined();
    const error = fake.state.messages.find((message) => message.kind === 'error');
    expect(error?.message).toMatch(/Unknown role "astronaut"\. Known roles: researcher, reviewer, refactorer/);
    expect(server.requests).toEqual([]);
  });

  it('sends the editor selection and its file along from the editor context menu', async () => {
    server.enqueue(textTurn('Reviewed.'));
    const document = fake.state.documents.open(Uri.file(`${extension.root}/src/dates.ts`));
    fake.state.activeTextEditor = { document, selection: new Selection(new Position(1, 0), new Position(1, 25)) as never };
    fake.state.quickPickAnswers.push(({ items }) => items.find((item) => (item as { role?: string }).role === 'reviewer'));
    fake.state.inputBoxAnswers.push(() => 'Is this timezone safe?');
    await extension.execute('agentTeam.delegate', document.uri);
    await finished();
    const sent = lastUserText(0);
    expect(sent).toContain('Is this timezone safe?');
    expect(sent).toContain('selected in src/dates.ts, line 2');
    expect(sent).toContain('return new Date(text);');
  });

  it('shows progress in the view, not a notification, until the run ends (here: stopped)', async () => {
    server.enqueue(hangingStream({ text: ['Working'] }));
    const taskId = await extension.execute('agentTeam.delegate', 'Take forever', { role: 'researcher' });
    await server.waitForRequest(0);
    const status = fake.state.statusItems[0];
    expect(status).toMatchObject({ visible: true, text: '$(loading~spin) 1 running' });
    expect(fake.state.progress[0]).toMatchObject({ location: { viewId: 'agentTeam.tasks' }, cancellable: false, done: false });
    await extension.execute('agentTeam.stopTask', taskId);
    await server.waitForClientClose(0);
    await extension.clock.advance(5_000);
    expect(status.visible).toBe(false);
    expect(fake.state.progress[0].done).toBe(true);
    // A user stop is not announced back to the user.
    expect(fake.state.messages).toEqual([]);
  });
});

describe('task commands', () => {
  it('Stop Task stops the task given by id; without one, and nothing running, it says so', async () => {
    server.enqueue(hangingStream());
    const taskId = await extension.execute('agentTeam.delegate', 'Take forever', { role: 'researcher' });
    await server.waitForRequest(0);
    const stopping = extension.execute('agentTeam.stopTask', taskId);
    await server.waitForClientClose(0);
    await extension.clock.advance(5_000);
    await stopping;
    await extension.execute('agentTeam.stopTask');
    expect(fake.state.messages.at(-1)).toMatchObject({ kind: 'info', message: 'No Agent Team task is running.' });
    await extension.execute('agentTeam.stopTask', 't99');
    expect(fake.state.messages.at(-1)?.message).toMatch(/There is no Agent Team task t99/);
  });

  it('Show Task reveals the task in the sidebar', async () => {
    server.enqueue(textTurn('Done.'));
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    const taskId = (await extension.execute('agentTeam.delegate', 'Quick one', { role: 'researcher' })) as string;
    await finished();
    await extension.execute('agentTeam.showTask', taskId);
    expect(view.shows).toBeGreaterThan(0);
    expect(view.ofType('reveal-task').at(-1)).toEqual({ type: 'reveal-task', taskId });
  });

  it('Clear History removes finished tasks and tells the sidebar', async () => {
    server.enqueue(textTurn('Done.'));
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    await extension.execute('agentTeam.delegate', 'Quick one', { role: 'researcher' });
    await finished();
    await extension.execute('agentTeam.clearHistory');
    expect(view.ofType('history-cleared')).toEqual([{ type: 'history-cleared', keptTaskIds: [] }]);
  });
});

describe('after a window reload', () => {
  it('shows the task history and the proposals still waiting for review', async () => {
    server.enqueue(
      {
        type: 'turn',
        toolCalls: [
          { name: 'Edit', input: { file_path: 'src/dates.ts', old_string: 'new Date(text)', new_string: 'new Date(Date.parse(text))' } },
        ],
      },
      textTurn('Proposed.'),
    );
    const taskId = await extension.execute('agentTeam.delegate', 'Fix the parser', { role: 'refactorer' });
    await finished();
    await extension.cleanup({ keepFiles: true });

    extension = activateExtension({
      reloadOf: extension,
      userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
    });
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    const snapshot = (await view.waitFor((message) => (message as HostMessage).type === 'snapshot')) as HostMessage & { type: 'snapshot' };
    expect(snapshot.tasks.map((task) => [task.id, task.status])).toEqual([[taskId, 'completed']]);
    expect(snapshot.changes).toEqual([
      { taskId, added: 1, removed: 1, pending: 1, files: [{ path: 'src/dates.ts', added: 1, removed: 1, status: 'pending' }] },
    ]);
    await flushMicrotasks();
    expect(await extension.execute('agentTeam.acceptFile', taskId, 'src/dates.ts')).toBe('applied');
  });

  it('continues a run with a follow-up that has its whole conversation (kept in the workspace storage)', async () => {
    server.enqueue(textTurn('The parser lives in src/dates.ts.'));
    const rootId = (await extension.execute('agentTeam.delegate', 'Where is the parser?', { role: 'researcher' })) as string;
    await finished();
    await extension.cleanup({ keepFiles: true });

    extension = activateExtension({
      reloadOf: extension,
      userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
    });
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
    server.enqueue(textTurn('It parses ISO dates only.'));
    view.send({ type: 'send-message', taskId: rootId, text: 'Which formats does it take?' });
    await view.waitFor((message) => (message as { type: string; outcome?: string }).type === 'message-sent');
    await expect.poll(() => server.requests.length).toBe(2);
    const followUp = JSON.stringify(server.requests[1]!.body);
    expect(followUp).toContain('Where is the parser?');
    expect(followUp).toContain('The parser lives in src/dates.ts.');
    expect(followUp).toContain('Which formats does it take?');
  });
});
