/**
 * The CLI's run history as the user meets it: a run file torn by a crash mid-write still continues (the
 * torn line skipped with a warning, nothing else lost); `--keep-runs` and the 30 days keep the history
 * bounded, oldest runs first; a new run never takes the id of a run still in the history.
 */
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.md': 'hello\n' });
const runsFolder = () => path.join(world.workspace, '.agent-team', 'runs');

async function runOnce(extra: string[], task: string) {
  const provider = providerEnvironment('anthropic', world.server.baseUrl);
  return startCli(world.cliPath, ['run', '--json', '--workspace', world.workspace, ...provider.args, ...extra, task], provider.env).exited;
}

describe('the CLI run history', () => {
  it('continues a run whose file ends in a torn line: the line is skipped with a warning, the conversation kept', async () => {
    world.server.respondWith((request) =>
      textTurn(
        priorTurns(request) === 0 ? 'The notes say hello.' : `Still know: ${JSON.stringify(request.body).includes('The notes say hello.')}`,
      ),
    );
    expect((await runOnce([], 'What do the notes say?')).code).toBe(0);
    // A crash while writing: half a record, no newline.
    await appendFile(path.join(runsFolder(), 't1.jsonl'), '{"type":"entry","taskId":"t1","index":7,"entry":{"type":"te');
    const next = await runOnce(['--continue', 't1'], 'And again?');
    expect(next.code).toBe(0);
    expect(next.stderr).toContain('the last line was cut short');
    expect(parseEvents(next.stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Still know: true' });
    // The words came as they streamed too, before the answer.
    const streamed = parseEvents(next.stdout).filter((event) => event.type === 'text-delta');
    expect(streamed.map((event) => event.text).join('')).toBe('Still know: true');
    // The next append started on a line of its own: the file reads whole again.
    const lines = (await readFile(path.join(runsFolder(), 't1.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
    expect(lines.filter((line) => !line.endsWith('}'))).toEqual(['{"type":"entry","taskId":"t1","index":7,"entry":{"type":"te']);
  });

  it('keeps the newest runs with --keep-runs, drops runs past 30 days, and never reuses a kept run\u2019s id', async () => {
    world.server.respondWith(() => textTurn('Done.'));
    for (const task of ['one', 'two', 'three']) expect((await runOnce([], task)).code).toBe(0);
    expect((await readdir(runsFolder())).filter((name) => name.endsWith('.jsonl') && name !== 'index.jsonl').sort()).toEqual([
      't1.jsonl',
      't2.jsonl',
      't3.jsonl',
    ]);
    // t1's last activity 40 days ago, as the index says it.
    const indexPath = path.join(runsFolder(), 'index.jsonl');
    const old = Date.now() - 40 * 24 * 3600 * 1000;
    const aged = (await readFile(indexPath, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const entry = JSON.parse(line) as { runId: string; createdAt?: number; updatedAt?: number };
        return JSON.stringify(entry.runId === 't1' ? { ...entry, createdAt: old, updatedAt: old } : entry);
      });
    await writeFile(indexPath, `${aged.join('\n')}\n`);
    const fourth = await runOnce(['--keep-runs', '2'], 'four');
    expect(fourth.code).toBe(0);
    // A new id past every kept one (t1, though removed, is not given again either).
    expect(parseEvents(fourth.stdout)[0]).toMatchObject({ type: 'task-start', taskId: 't4' });
    // t1 (too old) and t2 (beyond the newest two) are gone; t3 and t4 stay.
    expect((await readdir(runsFolder())).filter((name) => name.endsWith('.jsonl') && name !== 'index.jsonl').sort()).toEqual([
      't3.jsonl',
      't4.jsonl',
    ]);
    const gone = await runOnce(['--continue', 't2'], 'more');
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('There is no run t2');
  });
});
