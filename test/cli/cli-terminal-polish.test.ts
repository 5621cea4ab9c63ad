/** The CLI on a terminal: diffs in colour unless NO_COLOR, the task from stdin with `-`, a tree as tall as the screen. */
import { describe, expect, it } from 'vitest';
import { clipToHeight } from '../../src/cli/terminal-lines.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'a.ts': 'export const a = 1;\n' });

function scriptEdit(): void {
  world.server.enqueue(
    toolCallTurn([{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } }]),
    textTurn('Changed.'),
  );
}

async function runRefactorer(extraEnvironment: Record<string, string>): Promise<string> {
  scriptEdit();
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const { code, stdout } = await startCli(
    world.cliPath,
    ['run', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Set a to 2'],
    { ...provider.env, ...extraEnvironment },
  ).exited;
  expect(code).toBe(0);
  return stdout;
}

describe('agent-team run on a terminal', () => {
  it('colours the proposed diff with FORCE_COLOR, and never with NO_COLOR', async () => {
    const coloured = await runRefactorer({ FORCE_COLOR: '1' });
    expect(coloured).toContain('\x1b[32m+export const a = 2;\x1b[39m');
    expect(coloured).toContain('\x1b[31m-export const a = 1;\x1b[39m');
    expect(coloured).toContain('\x1b[36m@@ -1,1 +1,1 @@\x1b[39m');
    const plain = await runRefactorer({ FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(plain).toContain('+export const a = 2;');
    expect(plain).not.toContain('\x1b[');
  });

  it('reads the task from stdin when it is -; an empty stdin is a usage error', async () => {
    world.server.respondWith((request) => textTurn(`Task was: ${request.lastMessageText}`));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, '-'],
      provider.env,
      { stdin: 'pipe' },
    );
    run.child.stdin!.end('Explain a.ts\nin two lines\n');
    const { code, stdout } = await run.exited;
    expect(code).toBe(0);
    expect(stdout).toContain('Task was: Explain a.ts\\nin two lines');
    const empty = startCli(world.cliPath, ['run', '--workspace', world.workspace, ...provider.args, '-'], provider.env, { stdin: 'pipe' });
    empty.child.stdin!.end('  \n');
    const ended = await empty.exited;
    expect(ended.code).toBe(2);
    expect(ended.stderr).toContain('the task on stdin is empty');
  });
});

describe('the live tree', () => {
  it('is clipped to the terminal height, counting what is left out', () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index}`);
    const tasks = Array.from({ length: 30 }, (_, index) => ({ status: index < 5 ? 'running' : 'completed' }) as never);
    expect(clipToHeight(lines, tasks, 10)).toEqual([...lines.slice(0, 8), '… and 22 more tasks (5 at work in all)']);
    expect(clipToHeight(lines.slice(0, 5), tasks, 10)).toHaveLength(5);
    expect(clipToHeight(lines, tasks, undefined)).toHaveLength(30);
  });
});
