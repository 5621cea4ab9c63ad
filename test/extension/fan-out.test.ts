/** agentTeam.confirmFanOutAbove: a wide fan-out asks in a modal; Deny starts none, Allow starts them all. */
import { describe, expect, it, vi } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({ userSettings: { 'agentTeam.confirmFanOutAbove': 2 } });

function scriptThreeResearchers(): void {
  world.server.respondWith((request) => {
    if (request.system.startsWith('You are a researcher')) return textTurn('Looked.');
    const turns = ((request.body as { messages: Array<{ role: string }> }).messages ?? []).filter(
      (message) => message.role === 'assistant',
    ).length;
    if (turns === 0)
      return toolCallTurn(
        Array.from({ length: 3 }, (_, index) => ({
          name: 'Agent',
          input: { subagent_type: 'researcher', description: `Part ${index + 1}`, prompt: 'Look.' },
        })),
      );
    return textTurn('Done.');
  });
}

describe('confirming wide fan-outs', () => {
  it('asks in a modal naming the parts; Deny starts none', async () => {
    scriptThreeResearchers();
    fake.state.messageAnswers.push((message) => {
      expect(message).toMatchObject({
        kind: 'warning',
        modal: true,
        message: 'The coordinator (t1) wants to start 3 subagents at once.',
        items: ['Allow'],
      });
      return undefined;
    });
    const rootId = (await world.extension.execute('agentTeam.delegate', 'Look everywhere')) as string;
    await world.extension.host.taskManager.wait(rootId);
    expect(world.extension.host.taskManager.list()).toHaveLength(1);
    expect(JSON.stringify(world.server.requests[1]!.body)).toContain('The user declined starting 3 subagents in one turn');
  });

  it('Allow starts them all', async () => {
    scriptThreeResearchers();
    fake.state.messageAnswers.push(() => 'Allow');
    const rootId = (await world.extension.execute('agentTeam.delegate', 'Look everywhere')) as string;
    await world.extension.host.taskManager.wait(rootId);
    expect(world.extension.host.taskManager.list().filter((task) => task.role === 'researcher')).toHaveLength(3);
  });
});
