/**
 * A remote role's token in the extension: stored with Set Remote Agent Token… (SecretStorage, never a
 * file), sent to the remote agent as a Bearer token in place of the environment's, never shown; an empty
 * token removes the stored one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { artifactChunk, startTestAgent, status, type TestAgent } from '../support/a2a-test-agent.js';
import { fake } from './support/fake-vscode.js';
import { everythingShown } from './support/harness.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const storedToken = 'stored-remote-token-0123456789';
let remote: TestAgent | undefined;

const world = useExtensionWorld({ environment: { KAGENT_TOKEN: 'environment-token-0123456789' } });

afterEach(async () => {
  await remote?.close();
  remote = undefined;
});

describe('Set Remote Agent Token…', () => {
  it('stores the token a remote role names; the role sends it instead of the environment’s; an empty token removes it', async () => {
    remote = await startTestAgent(async (turn) => {
      artifactChunk(turn, 'All pods are healthy.', false, true);
      status(turn, 'completed');
    });
    const extension = await world.reactivate({
      environment: { KAGENT_TOKEN: 'environment-token-0123456789' },
      files: {
        '.agent-team/agents/cluster-helper.md': `---\nname: cluster-helper\ndescription: Answers about the cluster.\na2a_url: ${remote.url}\na2a_auth_env: KAGENT_TOKEN\n---\n`,
      },
    });
    fake.state.quickPickAnswers.push(({ items }) => {
      expect(items.map((item) => item.label)).toEqual(['KAGENT_TOKEN', 'Another variable…']);
      return items[0];
    });
    fake.state.inputBoxAnswers.push((options) => {
      expect(options.password).toBe(true);
      return storedToken;
    });
    await extension.execute('agentTeam.setRemoteAgentToken');
    const taskId = (await extension.execute('agentTeam.delegate', 'Are the pods healthy?', { role: 'cluster-helper' })) as string;
    const ended = await extension.host.taskManager.wait(taskId);
    expect(ended).toMatchObject({ status: 'completed', output: 'All pods are healthy.' });
    expect(new Set(remote.authorizations)).toEqual(new Set([`Bearer ${storedToken}`]));
    expect(everythingShown([])).not.toContain(storedToken);

    fake.state.inputBoxAnswers.push(() => '');
    await extension.execute('agentTeam.setRemoteAgentToken', 'KAGENT_TOKEN');
    const again = (await extension.execute('agentTeam.delegate', 'And now?', { role: 'cluster-helper' })) as string;
    await extension.host.taskManager.wait(again);
    expect(remote.authorizations.at(-1)).toBe('Bearer environment-token-0123456789');
  });
});
