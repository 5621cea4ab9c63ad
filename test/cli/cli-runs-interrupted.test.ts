/**
 * `agent-team runs` tells a run whose process is gone from one that still works: while the CLI works on a
 * run it is listed `running`; once that process is killed (SIGKILL: no chance to write its end) the run
 * the log still shows unfinished is listed `interrupted`, in text and JSON, as the sidebar shows it.
 */
import { describe, expect, it } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.md': 'The notes say hello.\n' });

describe('agent-team runs after a run was killed', () => {
  it('lists the killed run as interrupted, not running', async () => {
    let killed = false;
    world.server.respondWith(() => (killed ? textTurn('Done.') : { type: 'hang' }));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const runs = (json: boolean) =>
      startCli(world.cliPath, ['runs', ...(json ? ['--json'] : []), '--workspace', world.workspace], {}).exited;
    const first = startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Summarize the notes'],
      provider.env,
    );
    await world.server.waitForRequest(0);
    const working = await runs(false);
    expect(working.code).toBe(0);
    expect(working.stdout).toMatch(/^t1 {2}running {2}/m);
    killed = true;
    first.child.kill('SIGKILL');
    await first.exited;
    const text = await runs(false);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^t1 {2}interrupted {2}.*Summarize the notes/m);
    const json = await runs(true);
    expect(JSON.parse(json.stdout.trim().split('\n')[0]!)).toMatchObject({ runId: 't1', status: 'interrupted' });
  });
});
