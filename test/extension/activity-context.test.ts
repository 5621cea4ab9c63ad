/** Context keys for `when` clauses and the view's badge, as tasks run and proposals wait. */
import { describe, expect, it, vi } from 'vitest';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { InMemoryTaskStore } from '../../src/engine/tasks/task-store.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ActivityContext } from '../../src/extension/activity-context.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({ files: { 'a.ts': 'const a = 1;\n' } });

describe('activity context', () => {
  it('hasRunningTasks and the badge follow the tasks at work; hasPendingChanges the proposals waiting', async () => {
    await world.extension.host.historyLoaded;
    const view = await fake.resolveView();
    expect(fake.state.contextKeys.get('agentTeam.hasRunningTasks')).toBe(false);
    expect(fake.state.contextKeys.get('agentTeam.hasPendingChanges')).toBe(false);
    expect(fake.state.contextKeys.get('agentTeam.hasTasks')).toBe(false);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    world.server.enqueue(async () => {
      await held;
      return toolCallTurn([{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } }]);
    }, textTurn('Changed.'));
    const taskId = (await world.extension.execute('agentTeam.delegate', 'Change a', { role: 'refactorer' })) as string;
    await world.server.waitForRequest(0);
    expect(fake.state.contextKeys.get('agentTeam.hasRunningTasks')).toBe(true);
    expect(fake.state.contextKeys.get('agentTeam.hasTasks')).toBe(true);
    expect((view as unknown as { badge?: { value: number; tooltip: string } }).badge).toEqual({
      value: 1,
      tooltip: '1 Agent Team task at work',
    });
    release();
    await world.extension.host.taskManager.wait(taskId);
    expect(fake.state.contextKeys.get('agentTeam.hasRunningTasks')).toBe(false);
    expect((view as unknown as { badge?: unknown }).badge).toBeUndefined();
    expect(fake.state.contextKeys.get('agentTeam.hasPendingChanges')).toBe(true);
    // The walkthrough's review step completes on a decision, not on a proposal waiting.
    expect(fake.state.contextKeys.get('agentTeam.hasDecidedChanges')).toBeUndefined();
    await world.extension.execute('agentTeam.rejectFile', taskId, 'a.ts');
    expect(fake.state.contextKeys.get('agentTeam.hasPendingChanges')).toBe(false);
    expect(fake.state.contextKeys.get('agentTeam.hasDecidedChanges')).toBe(true);
    // The task is history now: its commands stay offered until the history is cleared.
    expect(fake.state.contextKeys.get('agentTeam.hasTasks')).toBe(true);
    await world.extension.execute('agentTeam.clearHistory');
    expect(fake.state.contextKeys.get('agentTeam.hasTasks')).toBe(false);
  });

  it("sets agentTeam.modelConfigured, which completes the walkthrough's key step, once a model can run", async () => {
    await world.extension.host.setup.refresh();
    // The world's settings point at the mock provider with a key: a model can run.
    expect(fake.state.contextKeys.get('agentTeam.modelConfigured')).toBe(true);
  });
});

describe('interrupted runs', () => {
  const background = (work: StagedWork, parentId?: string) =>
    ({
      role: 'researcher',
      description: 'Find usages',
      prompt: 'Find them',
      mode: 'background',
      work: work.work,
      ...(parentId ? { parentId } : {}),
    }) as const;

  it('hasInterruptedRuns (Resume Run in the palette) follows the interrupted roots: at shutdown, and found in the history', async () => {
    const store = new InMemoryTaskStore();
    const manager = new TaskManager({ clock: new ManualClock(), store, onWarning: () => {} });
    const context = new ActivityContext(manager, new ChangeSetRegistry(), () => {});
    expect(fake.state.contextKeys.get('agentTeam.hasInterruptedRuns')).toBe(false);
    const root = new StagedWork({ onAbort: 'return' });
    const child = new StagedWork({ onAbort: 'return' });
    await manager.start(background(root));
    await root.started;
    await manager.start(background(child, 't1'));
    await child.started;
    await manager.flush();
    // The process dies here; a later one finds the run unfinished in the history.
    const later = new TaskManager({ clock: new ManualClock(), store, onWarning: () => {} });
    const laterContext = new ActivityContext(later, new ChangeSetRegistry(), () => {});
    await later.load();
    laterContext.refresh();
    expect(later.get('t1')?.status).toBe('interrupted');
    expect(fake.state.contextKeys.get('agentTeam.hasInterruptedRuns')).toBe(true);
    laterContext.dispose();

    // In the first process the window closes instead: the same run ends interrupted.
    fake.state.contextKeys.set('agentTeam.hasInterruptedRuns', false);
    await manager.close();
    expect(manager.get('t1')?.status).toBe('interrupted');
    expect(fake.state.contextKeys.get('agentTeam.hasInterruptedRuns')).toBe(true);
    context.dispose();
  });
});
