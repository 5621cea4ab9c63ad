/** Scratch: a role file naming the new capability's tool is accepted through the CLI, and its flag is taken. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'README.md': '# Demo\n' });

describe('a capability added by the guide', () => {
  it('has its tool accepted in a role file and its flag on run', async () => {
    await mkdir(path.join(world.workspace, '.agent-team/agents'), { recursive: true });
    await writeFile(
      path.join(world.workspace, '.agent-team/agents/timekeeper.md'),
      '---\ndescription: Tells the time.\ntools: [Read, Now]\n---\nYou tell the time.',
    );
    world.server.respondWith(() => textTurn('It is now.'));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stderr } = await startCli(
      world.cliPath,
      [
        'run',
        '--json',
        '--agent',
        'timekeeper',
        '--now-time-zone',
        'Europe/Paris',
        '--workspace',
        world.workspace,
        ...provider.args,
        'What time is it?',
      ],
      provider.env,
    ).exited;
    expect(stderr).not.toContain('unknown tool');
    expect(code).toBe(0);
    expect(world.server.requests[0]!.toolNames.sort()).toEqual(['Now', 'Read']);
  });
});
