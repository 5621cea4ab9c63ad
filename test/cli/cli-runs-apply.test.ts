/**
 * `agent-team runs` and `agent-team apply <runId>` (to the working tree) through the real CLI bundle: the
 * history listed with its pending proposals; a finished run's proposals written exactly, after which it
 * has none pending; a failed run applies nothing and says why; `--file` limits the files, and an unknown
 * file or run is exit 2.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { expectedMath, expectedReadme, originalMath, originalReadme, runRefactorer } from './refactorer-run.js';

const world = useCliWorld({ 'math.ts': originalMath, 'README.md': originalReadme });
const cli = (args: string[]) => startCli(world.cliPath, [...args, '--workspace', world.workspace], {}).exited;
const disk = async () => [
  await readFile(path.join(world.workspace, 'math.ts'), 'utf8'),
  await readFile(path.join(world.workspace, 'README.md'), 'utf8'),
];

describe('agent-team runs', () => {
  it('says there is no history in a workspace without one (exit 0)', async () => {
    const { code, stdout } = await cli(['runs']);
    expect(code).toBe(0);
    expect(stdout).toContain('no run history');
  });

  it('lists a run with its pending proposals, as text and as JSON', async () => {
    const runId = await runRefactorer(world);
    const text = await cli(['runs']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^${runId}  completed  .*Rename add to sum`, 'm'));
    expect(text.stdout).toMatch(/refactorer: README\.md \(\+2 −0\), math\.ts \(\+1 −1\)/);
    const json = await cli(['runs', '--json']);
    const [listing] = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(listing).toMatchObject({
      runId,
      status: 'completed',
      role: 'refactorer',
      proposals: [
        {
          role: 'refactorer',
          taskStatus: 'completed',
          files: [
            { path: 'README.md', added: 2, removed: 0 },
            { path: 'math.ts', added: 1, removed: 1 },
          ],
        },
      ],
    });
  });
});

describe('agent-team apply <runId>', () => {
  it('writes a finished run’s proposals to the working tree; then none is pending', async () => {
    const runId = await runRefactorer(world);
    const { code, stdout } = await cli(['apply', runId]);
    expect(code).toBe(0);
    expect(stdout).toContain('applied: math.ts');
    expect(await disk()).toEqual([expectedMath, expectedReadme]);
    expect((await cli(['runs'])).stdout).toContain('no pending proposals');
    const again = await cli(['apply', runId]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('no pending proposals; nothing to apply');
  });

  it('applies only the --file named, and refuses a file the run did not propose (exit 2, naming those it did)', async () => {
    const runId = await runRefactorer(world);
    const unknown = await cli(['apply', runId, '--file', 'other.ts']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('proposed no change to other.ts. It proposed: README.md, math.ts.');
    const { code } = await cli(['apply', runId, '--file', 'math.ts', '--json']);
    expect(code).toBe(0);
    expect(await disk()).toEqual([expectedMath, originalReadme]);
  });

  it('applies nothing from a run that failed, and says why (exit 1)', async () => {
    const runId = await runRefactorer(world, { fails: true });
    const { code, stdout } = await cli(['apply', runId]);
    expect(code).toBe(1);
    expect(stdout).toContain(`apply ${runId}: nothing was written because the run did not complete (it failed`);
    expect(await disk()).toEqual([originalMath, originalReadme]);
  });

  it('reports a conflict with the disk and writes nothing of that file (exit 1)', async () => {
    const runId = await runRefactorer(world);
    await writeFile(path.join(world.workspace, 'math.ts'), `// changed by hand\n${originalMath}`);
    const { code, stdout } = await cli(['apply', runId]);
    expect(code).toBe(1);
    expect(stdout).toContain('conflict: math.ts');
    // Both sides: the line put before the hunk anchored at the file's start, and the proposal's rename.
    expect(stdout).toContain('<<<<<<< on disk\n// changed by hand\nexport function add(');
    expect(stdout).toMatch(/=======\nexport function sum\(a: number, b: number\) \{\n[\s\S]*>>>>>>> task t\d+\n/);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(`// changed by hand\n${originalMath}`);
  });

  it('is exit 2 for an unknown run, and for a workspace without history', async () => {
    const none = await cli(['apply', 't999']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('has no run history');
    await runRefactorer(world);
    const unknown = await cli(['apply', 't999']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no run t999');
  });
});
