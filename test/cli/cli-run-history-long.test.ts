/**
 * A long run history through the CLI (B14): every open reads the whole index, so a run whose line is the
 * first of thousands (the index spans several of the 1 MiB chunks it is read in) is listed, continued and never given
 * again, with the last line per run winning, tombstones honoured, and damaged or torn lines skipped with a
 * warning, as in a short one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.md': 'hello\n' });
const planted = 3000;

function cli(args: string[]) {
  const provider = providerEnvironment('anthropic', world.server.baseUrl);
  return startCli(world.cliPath, [...args, '--workspace', world.workspace, ...(args[0] === 'run' ? provider.args : [])], provider.env)
    .exited;
}

/** Index lines for runs t2…t<planted + 1>, each newer than the last, as another process of this user would write them. */
function laterRuns(after: number): string[] {
  return Array.from({ length: planted }, (_, number) => {
    const runId = `t${number + 2}`;
    const at = after + number + 1;
    return JSON.stringify({
      runId,
      description: `Later run ${number}: ${'a long title '.repeat(40)}`,
      role: 'coordinator',
      status: 'completed',
      createdAt: at,
      updatedAt: at,
      bytes: 0,
      taskIds: [runId],
      openTasks: 0,
    });
  });
}

describe('the CLI run history, thousands of runs long', () => {
  it('still lists and continues the oldest run, and gives a new task an id past every run', async () => {
    world.server.respondWith((request) =>
      textTurn(
        priorTurns(request) === 0 ? 'The notes say hello.' : `Still know: ${JSON.stringify(request.body).includes('The notes say hello.')}`,
      ),
    );
    expect((await cli(['run', '--json', 'What do the notes say?'])).code).toBe(0);
    const indexPath = path.join(world.workspace, '.agent-team', 'runs', 'index.jsonl');
    const own = await readFile(indexPath, 'utf8');
    const ownUpdatedAt = Math.max(
      ...own
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line).updatedAt as number),
    );
    const later = laterRuns(ownUpdatedAt);
    // t10 written twice (the last line wins), t1500 deleted, a damaged line, and a line torn by a crash at the end.
    later.push(JSON.stringify({ ...JSON.parse(later[8]!), description: 'Later run 8, renamed', updatedAt: ownUpdatedAt + planted + 1 }));
    later.push(JSON.stringify({ runId: 't1500', removed: true }), 'not json', '{"runId":"t9999","descr');
    await writeFile(indexPath, `${own}${later.join('\n')}`);
    expect(own.length).toBeLessThan(64 * 1024);
    expect((await readFile(indexPath)).length).toBeGreaterThan(2 * 1024 * 1024);

    const listed = await cli(['runs', '--json']);
    expect(listed.code).toBe(0);
    const runs = listed.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { runId: string; description: string; foreign: boolean; status: string });
    expect(runs).toHaveLength(planted);
    expect(runs.at(-1)).toMatchObject({ runId: 't1', description: 'What do the notes say?', status: 'completed', foreign: false });
    expect(runs[0]).toMatchObject({ runId: 't10', description: 'Later run 8, renamed' });
    expect(runs.some((run) => run.runId === 't1500')).toBe(false);
    // The damaged line comes after the run's own lines, the later runs, t10's second line and the tombstone.
    const damagedLine = own.split('\n').filter((line) => line !== '').length + planted + 3;
    expect(listed.stderr).toContain(`index.jsonl: line ${damagedLine} is not a run index line; it was skipped`);
    expect(listed.stderr).toContain('index.jsonl: the last line was cut short');

    const next = await cli(['run', '--json', '--continue', 't1', 'And again?']);
    expect(next.code).toBe(0);
    const events = parseEvents(next.stdout);
    expect(events[0]).toMatchObject({ type: 'task-start', taskId: `t${planted + 2}` });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Still know: true' });
  });
});
