/**
 * `agent-team undo <runId>` through the real CLI bundle: what `agent-team apply` (and `run --apply`) wrote
 * is put back byte for byte (a CRLF file with a BOM, a file the accept created is deleted), an undo of the
 * undo puts the accepted content back (the deleted file returns); a file edited by hand since is refused by
 * name and nothing at all is written, unless `--force` (and the hand edit is kept: undoing that undo brings
 * it back); `--file` limits it; a run log edited by hand is foreign, and its paths stay in the workspace.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const originalMath = '\uFEFFexport function add(a: number, b: number) {\r\n  return a + b;\r\n}\r\n';
const acceptedMath = originalMath.replace('function add(', 'function sum(');
const world = useCliWorld({ 'math.ts': originalMath, 'README.md': '# Math\n' });
const cli = (args: string[]) => startCli(world.cliPath, [...args, '--workspace', world.workspace], {}).exited;

/** Every file of the workspace but the run history, with its bytes. */
async function files(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(world.workspace, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(world.workspace, full);
    if (entry.isFile() && !relative.startsWith('.agent-team')) found[relative] = (await readFile(full)).toString('base64');
  }
  return found;
}

/** A finished run whose refactorer renames add in math.ts and creates new.txt; `apply`: with --apply. */
async function runRefactorer(apply = false): Promise<void> {
  world.server.respondWith((request) => {
    if (request.lastMessageText.includes('Renamed')) return textTurn('Done.');
    return request.body && JSON.stringify(request.body).includes('tool_call_id')
      ? textTurn('Renamed add to sum and wrote new.txt.')
      : toolCallTurn([
          { name: 'Edit', input: { file_path: 'math.ts', old_string: 'export function add(', new_string: 'export function sum(' } },
          { name: 'Write', input: { file_path: 'new.txt', content: 'made by the accept\n' } },
        ]);
  });
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const run = await startCli(
    world.cliPath,
    ['run', '--agent', 'refactorer', '--workspace', world.workspace, ...(apply ? ['--apply'] : []), ...provider.args, 'Rename add to sum'],
    provider.env,
  ).exited;
  expect(run.code, run.stderr).toBe(0);
}

describe('agent-team undo', () => {
  it('puts back byte for byte what apply wrote; undoing the undo puts the accepted content back', async () => {
    await runRefactorer();
    const before = await files();
    const applied = await cli(['apply', 't1']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('To take back what was written: agent-team undo t1');
    const accepted = await files();
    expect(Buffer.from(accepted['math.ts']!, 'base64').toString('utf8')).toBe(acceptedMath);
    expect(accepted['new.txt']).toBeDefined();

    const undone = await cli(['undo', 't1']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('undone: math.ts (content put back)');
    expect(undone.stdout).toContain('undone: new.txt (deleted: the accept created it)');
    expect(await files()).toEqual(before);
    expect(existsSync(path.join(world.workspace, 'new.txt'))).toBe(false);

    const redone = await cli(['undo', 't1', '--json']);
    expect(redone.code, redone.stderr).toBe(0);
    expect(JSON.parse(redone.stdout)).toMatchObject({
      runId: 't1',
      outcome: 'redone',
      files: [
        { path: 'math.ts', action: 'restored' },
        { path: 'new.txt', action: 'created' },
      ],
    });
    expect(await files()).toEqual(accepted);
    expect((await cli(['undo', 't1'])).code).toBe(0);
    expect(await files()).toEqual(before);
  });

  it('refuses a file edited by hand since, naming it, and writes nothing; --force writes over it and keeps the edit for an undo of the undo', async () => {
    await runRefactorer();
    expect((await cli(['apply', 't1'])).code).toBe(0);
    const edited = `${acceptedMath}// edited by hand\n`;
    await writeFile(path.join(world.workspace, 'math.ts'), edited);
    const handEdited = await files();
    const refused = await cli(['undo', 't1']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      'Nothing was undone; every file was left as it is. Refused:\n  math.ts: it changed on disk since the change was accepted',
    );
    expect(refused.stdout).not.toContain('new.txt:');
    expect(refused.stdout).toContain('agent-team undo t1 --force');
    expect(await files()).toEqual(handEdited);

    const forced = await cli(['undo', 't1', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('undone: math.ts (content put back) — written over a change made since (--force)');
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(originalMath);
    expect(existsSync(path.join(world.workspace, 'new.txt'))).toBe(false);
    expect((await cli(['undo', 't1'])).code).toBe(0);
    expect(await files()).toEqual(handEdited);
  });

  it('undoes only the --file named; a file no accept wrote is exit 2', async () => {
    await runRefactorer(true);
    const accepted = await files();
    expect(Buffer.from(accepted['math.ts']!, 'base64').toString('utf8')).toBe(acceptedMath);
    const unknown = await cli(['undo', 't1', '--file', 'README.md']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No accepted change of run t1 wrote README.md. Its accepts wrote: math.ts, new.txt.');
    const one = await cli(['undo', 't1', '--file', 'new.txt']);
    expect(one.code, one.stderr).toBe(0);
    expect(existsSync(path.join(world.workspace, 'new.txt'))).toBe(false);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(acceptedMath);
    // The rest of the run is still accepted: undo takes it back now.
    expect((await cli(['undo', 't1', '--file', 'math.ts'])).code).toBe(0);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(originalMath);
  });

  it('has nothing to undo before an accept, and refuses an unknown run', async () => {
    await runRefactorer();
    const nothing = await cli(['undo', 't1']);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain('Run t1: nothing to undo');
    expect((await cli(['undo', 't99'])).stderr).toContain('There is no run t99');
  });

  it('refuses a run log edited by hand (foreign) without --force, and never writes out of the workspace with it', async () => {
    await runRefactorer();
    expect((await cli(['apply', 't1'])).code).toBe(0);
    const log = path.join(world.workspace, '.agent-team', 'runs', 't1.jsonl');
    await writeFile(log, (await readFile(log, 'utf8')).replaceAll('"new.txt"', '"../outside.txt"'));
    const foreign = await cli(['undo', 't1']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain('Run t1 is foreign');
    const forced = await cli(['undo', 't1', '--force']);
    expect(forced.stdout).toContain('not undone: ../outside.txt:');
    expect(existsSync(path.join(world.workspace, '..', 'outside.txt'))).toBe(false);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(originalMath);
  });
});
