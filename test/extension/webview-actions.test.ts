import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { type HostMessage } from '../../src/shared/protocol.js';
import { fake } from './support/fake-vscode.js';
import { type FakeWebviewView } from './support/fake-webview.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let extension: ActivatedExtension | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

async function openSidebar(): Promise<FakeWebviewView> {
  const view = await fake.resolveView();
  view.send({ type: 'ready' });
  await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
  return view;
}

describe('sidebar actions', () => {
  it('opens an http(s) link only after the user confirms it in a modal', async () => {
    extension = activateExtension();
    const view = await openSidebar();
    fake.state.messageAnswers.push(() => undefined);
    view.send({ type: 'open-link', url: 'https://example.com/docs?a=1' });
    await flushMicrotasks();
    expect(fake.state.messages).toEqual([{ kind: 'warning', message: 'Open this link in your browser?', items: ['Open'], modal: true }]);
    expect(fake.state.openedExternal).toEqual([]);
    fake.state.messageAnswers.push((message) => message.items[0]);
    view.send({ type: 'open-link', url: 'https://example.com/docs?a=1' });
    await flushMicrotasks();
    expect(fake.state.openedExternal).toEqual(['https://example.com/docs?a=1']);
  });

  it('does not offer to open links that are not http or https', async () => {
    extension = activateExtension();
    const view = await openSidebar();
    view.send({ type: 'open-link', url: 'mailto:someone@example.com' });
    await flushMicrotasks();
    expect(fake.state.messages).toEqual([]);
    expect(fake.state.openedExternal).toEqual([]);
    expect(fake.state.logLines.some((line) => line.includes('Sidebar:') && line.includes('open-link'))).toBe(true);
  });

  it('resumes a run through agentTeam.resumeRun with the run\u2019s id, as Stop goes through agentTeam.stopTask', async () => {
    extension = activateExtension();
    const view = await openSidebar();
    const calls: unknown[][] = [];
    // Whatever the command does (host.ts), the sidebar's part is to run it with the run's id.
    fake.state.commands.set('agentTeam.resumeRun', (...args: unknown[]) => calls.push(args));
    view.send({ type: 'resume-run', taskId: 't7' });
    await flushMicrotasks();
    expect(calls).toEqual([['t7']]);
  });

  it('runs allowlisted commands with the host\u2019s own arguments: the walkthrough is Agent Team\u2019s', async () => {
    extension = activateExtension();
    const view = await openSidebar();
    view.send({ type: 'run-command', command: 'workbench.action.openWalkthrough' });
    view.send({ type: 'run-command', command: 'workbench.trust.manage' });
    await flushMicrotasks();
    expect(fake.state.builtinCommands).toEqual([
      { command: 'workbench.action.openWalkthrough', args: ['agent-team.agent-team#agentTeam.gettingStarted', false] },
      { command: 'workbench.trust.manage', args: [] },
    ]);
  });

  it('offers a detected local server when no model is set up, and uses it from the user settings', async () => {
    extension = activateExtension({
      probeLocalServer: async () => ({ url: 'http://127.0.0.1:11434/v1', models: ['qwen2.5-coder', 'llama3'] }),
    });
    const view = await openSidebar();
    // In the snapshot or in a later setup-state, depending on whether the probe answered before `ready`.
    const offered = (await view.waitFor(
      (message) => (message as { setup?: { localServerUrl?: string } }).setup?.localServerUrl !== undefined,
    )) as HostMessage & {
      type: 'setup-state';
    };
    expect(offered.setup).toEqual({ modelConfigured: false, restricted: false, localServerUrl: 'http://127.0.0.1:11434/v1' });
    view.send({ type: 'use-local-server' });
    await view.waitFor(
      (message) =>
        (message as HostMessage).type === 'setup-state' && (message as { setup: { modelConfigured: boolean } }).setup.modelConfigured,
    );
    expect(Object.fromEntries(fake.state.settings.global)).toEqual({
      'agentTeam.provider': 'openai',
      'agentTeam.baseUrl': 'http://127.0.0.1:11434/v1',
      'agentTeam.model': 'qwen2.5-coder',
    });
    expect(fake.state.settings.workspace.size).toBe(0);
  });
});

describe('a hidden sidebar', () => {
  it('gets nothing while hidden, and one fresh snapshot when shown again', async () => {
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': 'http://127.0.0.1:9/v1' } });
    const view = await openSidebar();
    view.setVisible(false);
    const before = view.posted.length;
    await extension.host.taskManager.start({
      role: 'researcher',
      description: 'Quiet work',
      prompt: 'x',
      mode: 'background',
      work: async () => ({ status: 'completed', output: 'done' }),
    });
    await extension.clock.advance(1_000);
    expect(view.posted.length).toBe(before);
    view.setVisible(true);
    const snapshot = (await view.waitFor(
      (message) => (message as HostMessage).type === 'snapshot' && view.posted.indexOf(message) >= before,
    )) as HostMessage & { type: 'snapshot' };
    expect(snapshot.tasks.map((task) => task.description)).toContain('Quiet work');
  });
});
