/**
 * Proposed edits through the CLI: a refactorer proposes edits to two files; without --apply nothing on
 * disk changes and the diffs are printed; with --apply both files change exactly.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const originalMath =
  'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n';
const expectedMath =
  'export function sum(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n';
const expectedReadme = '# Math\n\nUse `sum` to add numbers.\n';

const world = useCliWorld({ 'math.ts': originalMath, 'README.md': '# Math\n' });
beforeEach(() => {
  world.server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
    switch (priorTurns(request)) {
      case 0:
        return toolCallTurn([
          { name: 'Edit', input: { file_path: 'math.ts', old_string: 'export function add(', new_string: 'export function sum(' } },
          { name: 'Write', input: { file_path: 'README.md', content: expectedReadme } },
        ]);
      case 1:
        // The refactorer's own reads see its pending edit although the disk does not have it.
        return toolCallTurn([{ name: 'Read', input: { file_path: 'math.ts' } }]);
      default:
        return textTurn('Renamed add to sum in math.ts and documented it in README.md.');
    }
  });
});

describe('agent-team run --agent refactorer', () => {
  it('prints the diffs and changes nothing without --apply', async () => {
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Rename add to sum'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(originalMath);
    expect(await readFile(path.join(world.workspace, 'README.md'), 'utf8')).toBe('# Math\n');
    expect(stdout).toContain('-export function add(a: number, b: number) {');
    expect(stdout).toContain('+export function sum(a: number, b: number) {');
    expect(stdout).toContain('+Use `sum` to add numbers.');
    expect(stdout).toContain('Nothing was written');
    const readResult = world.server.requests.at(-1)?.lastMessageText ?? '';
    expect(readResult).toContain('export function sum(');
  });

  it('emits change-proposed events with unified diffs in --json mode', async () => {
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Rename add to sum'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const proposed = parseEvents(stdout).filter((event) => event.type === 'change-proposed');
    expect(proposed.map((event) => event.path).sort()).toEqual(['README.md', 'math.ts']);
    const mathDiff = String(proposed.find((event) => event.path === 'math.ts')?.diff);
    expect(mathDiff).toMatch(/^--- a\/math\.ts\n\+\+\+ b\/math\.ts\n@@ -1,4 \+1,4 @@/m);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(originalMath);
  });

  it('applies both files exactly with --apply', async () => {
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--apply', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Rename add to sum'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(expectedMath);
    expect(await readFile(path.join(world.workspace, 'README.md'), 'utf8')).toBe(expectedReadme);
    expect(stdout).toContain('applied: math.ts');
    expect(stdout).toContain('applied: README.md');
  });
});
