/**
 * Two background refactorers change one file, through the real CLI and the mock provider: different
 * functions both land with `--apply` (the later merged onto the earlier); the same lines give one
 * conflict with both sides and write nothing of the file; `agent-team apply <run> --show` prints the
 * rebased proposals and `--take` settles the conflict. The coordinator is told whether the two fit.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { both, original, scriptRefactorers as script } from './two-refactorers.js';

const world = useCliWorld({ 'shapes.ts': original });

const scriptRefactorers = (first: Parameters<typeof script>[1], second: Parameters<typeof script>[2]) => script(world, first, second);

async function runOnce(protocol: MockProtocol, extra: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  const result = await startCli(
    world.cliPath,
    ['run', '--workspace', world.workspace, ...provider.args, ...extra, 'Refactor shapes.ts'],
    provider.env,
  ).exited;
  return { ...result, provider };
}

async function apply(provider: { env: Record<string, string> }, args: string[]) {
  return startCli(world.cliPath, ['apply', ...args, '--workspace', world.workspace], provider.env).exited;
}

async function runIdOf(provider: { env: Record<string, string> }): Promise<string> {
  const listed = await startCli(world.cliPath, ['runs', '--json', '--workspace', world.workspace], provider.env).exited;
  return (JSON.parse(listed.stdout.split('\n')[0]!) as { runId: string }).runId;
}

const shapes = () => readFile(path.join(world.workspace, 'shapes.ts'), 'utf8');

describe.each<MockProtocol>(['openai', 'anthropic'])('agent-team: two refactorers edit one file (%s)', (protocol) => {
  it('different functions both land with --apply: the later change is merged onto the earlier', async () => {
    const { coordinatorTexts } = scriptRefactorers('alpha', 'omega');
    const { code, stdout, stderr } = await runOnce(protocol, ['--apply']);
    expect(code, stderr + stdout).toBe(0);
    expect(await shapes()).toBe(both);
    expect(stdout).toMatch(/applied: shapes\.ts — shapes\.ts: applied 1 of 1 change\.\n/);
    expect(stdout).toContain(
      'applied: shapes.ts — shapes.ts: applied 1 of 1 change, merged with the changes made on disk since the task read it (task t2; no line changed by both).',
    );
    expect(stdout).not.toContain('conflict');
    expect(stdout).toContain('[t3 refactorer] shapes.ts (+1 −1) — overlaps with task t2 (different lines: both can be applied)');
    // The coordinator heard that the two proposals touch one file and fit together.
    expect(coordinatorTexts.join('\n')).toContain('different lines: both can be applied');
  });
});

describe('agent-team: overlapping edits of one file', () => {
  it('give one conflict with both sides, write nothing of the file, and the coordinator is told', async () => {
    const { coordinatorTexts } = scriptRefactorers('alpha', 'alphaToo');
    const { code, stdout } = await runOnce('openai', ['--apply']);
    expect(code).toBe(1);
    expect(await shapes()).toBe(original);
    expect(stdout.match(/^conflict: /gm)).toHaveLength(1);
    expect(stdout).toContain('conflict: shapes.ts — lines 1–5 were changed by both task t2 and task t3; nothing was written to shapes.ts.');
    expect(stdout).toContain(
      '<<<<<<< task t2\nexport function alpha() {\n  return 10;\n}\n\n// ---\n=======\nexport function alpha() {\n  return 100;\n}\n\n// ---\n>>>>>>> task t3\n',
    );
    expect(stdout).toMatch(/--file shapes\.ts --take t2 or --take t3/);
    expect(stdout).not.toMatch(/^applied: /m);
    // The proposals listed before applying already say so.
    expect(stdout).toMatch(/\[t3 refactorer\] shapes\.ts \(\+1 −1\) — overlaps with task t2 \(conflict: lines 1–5 were changed by both/);
    expect(coordinatorTexts.join('\n')).toContain('conflict: lines 1–5 were changed by both');
  });

  it('agent-team apply <run> --show prints the conflict and writes nothing; --take settles it; --conflict-markers writes both sides', async () => {
    scriptRefactorers('alpha', 'alphaToo');
    const { code, provider } = await runOnce('openai', []);
    expect(code).toBe(0);
    const runId = await runIdOf(provider);

    const shown = await apply(provider, [runId, '--show']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('[t3] shapes.ts — rebased onto task t2\n  conflict: lines 1–5 were changed by both task t2 and task t3');
    expect(shown.stdout).toContain('>>>>>>> task t3\n');
    expect(shown.stdout).toContain('Nothing was written. In conflict: shapes.ts');
    expect(await shapes()).toBe(original);

    const refused = await apply(provider, [runId]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('<<<<<<< task t2');
    expect(await shapes()).toBe(original);

    const unknown = await apply(provider, [runId, '--take', 't9']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('task t9 proposed no change');

    const taken = await apply(provider, [runId, '--file', 'shapes.ts', '--take', 't3']);
    expect(taken.code, taken.stdout + taken.stderr).toBe(0);
    expect(await shapes()).toBe(original.replace('return 1;', 'return 100;'));
    const listed = await startCli(world.cliPath, ['runs', '--json', '--workspace', world.workspace], provider.env).exited;
    // Both proposals for the file are settled: the run lists nothing pending any more.
    expect(JSON.parse(listed.stdout.split('\n')[0]!)).toMatchObject({ runId, proposals: [] });
  });

  it('--conflict-markers writes the merged file with both sides marked, to edit by hand', async () => {
    scriptRefactorers('alpha', 'alphaToo');
    const { provider } = await runOnce('openai', []);
    const runId = await runIdOf(provider);
    const marked = await apply(provider, [runId, '--conflict-markers']);
    expect(marked.code, marked.stdout + marked.stderr).toBe(0);
    const content = await shapes();
    expect(content.startsWith('<<<<<<< task t2\nexport function alpha() {\n  return 10;\n')).toBe(true);
    expect(content).toContain('=======\nexport function alpha() {\n  return 100;\n}\n\n// ---\n>>>>>>> task t3\n// spacer\n');
  });
});

describe('agent-team apply <run> with edits that fit together', () => {
  it('--show prints the later proposal rebased onto the earlier; apply writes both', async () => {
    scriptRefactorers('alpha', 'omega');
    const { code, provider } = await runOnce('openai', []);
    expect(code).toBe(0);
    const runId = await runIdOf(provider);
    const shown = await apply(provider, [runId, '--show']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('[t3] shapes.ts — rebased onto task t2\n');
    // The rebased diff is from the file as t2 leaves it: t2's line is context there, not a change.
    expect(shown.stdout).toContain('-  return 3;\n+  return 30;\n');
    expect(shown.stdout).toContain('Nothing was written.\n');
    expect(await shapes()).toBe(original);
    const applied = await apply(provider, [runId]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await shapes()).toBe(both);
  });
});
