/**
 * `agent-team apply <runId> --hunk <file>:<n>` and `--reject-hunk` through the real CLI bundle: one hunk
 * of a two-hunk proposal written byte for byte while the other stays proposed (renumbered in `--show`)
 * and is applied later; a rejected hunk stays out of a later apply of the rest; a file changed on disk
 * since is refused by name and a bad hunk number is a clear error, both writing nothing; undo puts the
 * file back.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

/** Twenty CRLF lines: edits at 2 and 18 are two hunks. */
const original = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\r\n`).join('');
const first = original.replace('line 2\r\n', 'line two\r\n');
const second = original.replace('line 18\r\n', 'line eighteen\r\n');
const proposed = first.replace('line 18\r\n', 'line eighteen\r\n');

const world = useCliWorld({ 'numbers.txt': original });
const cli = (args: string[]) => startCli(world.cliPath, [...args, '--workspace', world.workspace], {}).exited;
const disk = () => readFile(path.join(world.workspace, 'numbers.txt'), 'utf8');

async function runEditor(): Promise<string> {
  world.server.respondWith((request) =>
    priorTurns(request) === 0
      ? toolCallTurn([{ name: 'Write', input: { file_path: 'numbers.txt', content: proposed } }])
      : textTurn('Spelled out two numbers.'),
  );
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const run = await startCli(
    world.cliPath,
    ['run', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Spell out 2 and 18'],
    provider.env,
  ).exited;
  expect(run.code, run.stderr).toBe(0);
  const listed = await cli(['runs', '--json']);
  return (JSON.parse(listed.stdout.split('\n')[0]!) as { runId: string }).runId;
}

describe('agent-team apply --hunk', () => {
  it('writes one hunk byte for byte; the other stays proposed, renumbered, and is applied later', async () => {
    const runId = await runEditor();
    const shown = await cli(['apply', runId, '--show']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^@@ -1,5 \+1,5 @@ hunk 1$/m);
    expect(shown.stdout).toMatch(/^@@ -15,6 \+15,6 @@ hunk 2$/m);

    const one = await cli(['apply', runId, '--hunk', 'numbers.txt:2']);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('applied: numbers.txt — numbers.txt: applied 1 of 2 changes.');
    expect(one.stdout).toContain(`still proposed: 1 hunk of numbers.txt, renumbered: agent-team apply ${runId} --show`);
    expect(one.stdout).toContain(`To take back what was written: agent-team undo ${runId}`);
    expect(await disk()).toBe(second);

    const rest = await cli(['apply', runId, '--show']);
    expect(rest.stdout).toMatch(/^@@ -1,5 \+1,5 @@ hunk 1$/m);
    expect(rest.stdout).not.toContain('hunk 2');
    expect(rest.stdout).toContain('+line two');
    expect(rest.stdout).not.toContain('+line eighteen');
    const later = await cli(['apply', runId]);
    expect(later.code, later.stderr).toBe(0);
    expect(await disk()).toBe(proposed);
  });

  it('keeps a rejected hunk out of a later apply of the rest', async () => {
    const runId = await runEditor();
    const rejected = await cli(['apply', runId, '--reject-hunk', 'numbers.txt:1', '--json']);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      runId,
      outcome: 'applied',
      files: [{ path: 'numbers.txt', outcome: 'rejected', rejected: [1], stillProposed: 1 }],
    });
    expect(await disk()).toBe(original);
    const rest = await cli(['apply', runId]);
    expect(rest.code, rest.stderr).toBe(0);
    expect(await disk()).toBe(second);
  });

  it('refuses a file changed on disk since, by name, and a bad hunk number, writing nothing either way', async () => {
    const runId = await runEditor();
    const badNumber = await cli(['apply', runId, '--hunk', 'numbers.txt:1,3']);
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toContain('numbers.txt has no hunk 3');
    expect(badNumber.stderr).toContain('has 2 hunks (numbered 1 to 2 in its diff). Nothing was written.');
    expect(await disk()).toBe(original);
    const badSyntax = await cli(['apply', runId, '--hunk', 'numbers.txt']);
    expect(badSyntax.code).toBe(2);
    expect(badSyntax.stderr).toContain('--hunk numbers.txt: it needs a file and hunk numbers');
    const unknown = await cli(['apply', runId, '--hunk', 'other.txt:1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no pending proposal to other.txt');

    const edited = original.replace('line 10\r\n', 'line ten, by hand\r\n');
    await writeFile(path.join(world.workspace, 'numbers.txt'), edited);
    const stale = await cli(['apply', runId, '--hunk', 'numbers.txt:1', '--reject-hunk', 'numbers.txt:2']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('Nothing was written or decided. Refused:\n  numbers.txt changed on disk since its change was proposed');
    expect(await disk()).toBe(edited);
    // Nothing was decided either: both hunks are still there, numbered as before.
    await writeFile(path.join(world.workspace, 'numbers.txt'), original);
    expect((await cli(['apply', runId, '--show'])).stdout).toMatch(/^@@ -15,6 \+15,6 @@ hunk 2$/m);
  });

  it('is taken back by undo, byte for byte', async () => {
    const runId = await runEditor();
    expect((await cli(['apply', runId, '--hunk', 'numbers.txt:1'])).code).toBe(0);
    expect(await disk()).toBe(first);
    const undone = await cli(['undo', runId]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('undone: numbers.txt (content put back)');
    expect(await disk()).toBe(original);
  });
});
