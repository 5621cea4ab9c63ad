/**
 * The hop count that stops A2A loops (`agentTeam/hops`): read and judged by the server, carried by our
 * client in every message it sends (0 from a run the user started, the run's own count from a run a
 * server started), over both protocol versions; and the direct loop, a role pointing at this process's own
 * server, refused before anything is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hopRefusal, hopsMetadataKey, hopsOf } from '../../src/engine/a2a/hop-count.js';
import { serveAddress, servedHere } from '../../src/engine/a2a/served-addresses.js';
import { maxA2aHops } from '../../src/engine/limits.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { artifactChunk, startTestAgent, status, type TestAgent } from '../support/a2a-test-agent.js';
import { createTeamHarness } from '../delegation/team-harness.js';

const closers: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function answeringAgent(versions: string[]): Promise<TestAgent> {
  const agent = await startTestAgent(
    async (turn) => {
      artifactChunk(turn, 'Answered.', false, true);
      status(turn, 'completed');
    },
    { versions },
  );
  closers.push(() => agent.close());
  return agent;
}

async function teamWithRemote(url: string) {
  const harness = await createTeamHarness({ a2a: () => ({ allowed: () => true, environment: {} }) });
  harness.roleFiles.files.set('.agent-team/agents/remote.md', `---\nname: remote\ndescription: Another team.\na2a_url: ${url}\n---\n`);
  await harness.roles.load();
  closers.push(() => harness.taskManager.close());
  return harness;
}

describe('the hop count', () => {
  it('is read as a whole number of 0 or more; anything else counts as 0', () => {
    expect(hopsMetadataKey).toBe('agentTeam/hops');
    expect(hopsOf(undefined)).toBe(0);
    expect(hopsOf({ [hopsMetadataKey]: 2 })).toBe(2);
    for (const odd of [-1, 1.5, '3', null, Number.POSITIVE_INFINITY]) expect(hopsOf({ [hopsMetadataKey]: odd })).toBe(0);
  });

  it(`refuses a request that has passed through ${maxA2aHops} servers, naming the likely cause`, () => {
    expect(hopRefusal(maxA2aHops - 1)).toBeUndefined();
    expect(hopRefusal(maxA2aHops)).toBe(
      `refused: this request has passed through ${maxA2aHops} agent-team servers; a remote role probably points back at this server (its a2a_url), directly or through another server`,
    );
  });
});

describe.each([[['1.0', '0.3']], [['0.3']]])('our client carries the count (card offers %j)', (versions) => {
  it('sends 0 from a run the user started, and the run’s count from a run a server started, to subagents too', async () => {
    const agent = await answeringAgent(versions);
    const harness = await teamWithRemote(agent.url);
    await harness.team.delegate({ prompt: 'Ask them', role: 'remote' });
    harness
      .model('coordinator')
      .enqueue([ScriptedModel.toolCall('Agent', { subagent_type: 'remote', description: 'Ask the team', prompt: 'Ask them' })], 'Done.');
    await harness.team.delegate({ prompt: 'Ask the other team', a2aHops: 2 });
    expect(agent.metadata.map((metadata) => metadata?.[hopsMetadataKey])).toEqual([0, 2]);
  });
});

describe('a role pointing at this process’s own server', () => {
  it('is known by its port, whatever loopback name it uses, until the server closes', () => {
    const unserve = serveAddress('http://127.0.0.1:47123/');
    expect(servedHere('http://localhost:47123')).toBe(true);
    expect(servedHere('http://[::1]:47123/a2a')).toBe(true);
    expect(servedHere('http://127.0.0.1:47124/')).toBe(false);
    expect(servedHere('http://example.com:47123/')).toBe(false);
    unserve();
    expect(servedHere('http://127.0.0.1:47123/')).toBe(false);
    const everywhere = serveAddress('http://0.0.0.0:47125/');
    expect(servedHere('http://localhost:47125/')).toBe(true);
    everywhere();
  });

  it('fails at once, saying so, and sends nothing', async () => {
    const agent = await answeringAgent(['1.0']);
    closers.push(serveAddress(agent.url));
    const harness = await teamWithRemote(agent.url);
    const run = await harness.team.delegate({ prompt: 'Ask them', role: 'remote' });
    expect(run.task.status).toBe('failed');
    expect(run.task.error).toContain("Role 'remote' runs on the remote agent at");
    expect(run.task.error).toContain('which is this agent-team server itself');
    expect(agent.prompts).toEqual([]);
  });
});
