/**
 * `agent-team undo` after the merging paths of apply: two refactorers' changes to one file written
 * together (the later merged three-way onto the earlier), and a conflict settled with `--take`. Undo puts
 * the file back as it was before both, in one step, and undoing the undo brings the merged file back.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { both, original, scriptRefactorers } from './two-refactorers.js';

const world = useCliWorld({ 'shapes.ts': original });
const shapes = () => readFile(path.join(world.workspace, 'shapes.ts'), 'utf8');
const cli = (args: string[]) => startCli(world.cliPath, [...args, '--workspace', world.workspace], {}).exited;

async function runTwo(first: Parameters<typeof scriptRefactorers>[1], second: Parameters<typeof scriptRefactorers>[2]): Promise<void> {
  scriptRefactorers(world, first, second);
  const provider = providerEnvironment('openai', world.server.baseUrl);
  expect(
    (await startCli(world.cliPath, ['run', '--workspace', world.workspace, ...provider.args, 'Refactor shapes.ts'], provider.env).exited)
      .code,
  ).toBe(0);
}

describe('agent-team undo after merged accepts', () => {
  it('takes back two tasks’ changes merged onto one file in one step, and undoing the undo brings them back', async () => {
    await runTwo('alpha', 'omega');
    const applied = await cli(['apply', 't1']);
    expect(applied.code, applied.stdout).toBe(0);
    expect(await shapes()).toBe(both);
    expect((await cli(['undo', 't1'])).code).toBe(0);
    expect(await shapes()).toBe(original);
    expect((await cli(['undo', 't1'])).code).toBe(0);
    expect(await shapes()).toBe(both);
  });

  it('takes back a conflict settled with --take', async () => {
    await runTwo('alpha', 'alphaToo');
    const taken = await cli(['apply', 't1', '--take', 't3']);
    expect(taken.code, taken.stdout).toBe(0);
    const settled = await shapes();
    expect(settled).not.toBe(original);
    const undone = await cli(['undo', 't1']);
    expect(undone.stdout).toContain('undone: shapes.ts (content put back)');
    expect(await shapes()).toBe(original);
  });
});
