/**
 * Proposed edits through the CLI: a refactorer proposes edits to two files; without --apply nothing on
 * disk changes and the diffs are printed; with --apply both files change exactly.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, buildCli, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';

const originalMath = 'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n';
const expectedMath = 'export function sum(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n';
const expectedReadme = '# Math\n\nUse `sum` to add numbers.\n';

let cli: Awaited<ReturnType<typeof buildCli>>;
let server: MockProviderServer;
let workspace: string;

beforeAll(async () => {
  cli = await buildCli();
});
afterAll(async () => {
  await cli.dispose();
});
beforeEach(async () => {
  server = await startMockProviderServer();
  workspace = await mkdtemp(path.join(tmpdir(), 'agent-team-ws-'));
  await writeFile(path.join(workspace, 'math.ts'), originalMath);
  await writeFile(path.join(workspace, 'README.md'), '# Math\n');
  server.respondWith((request) => {
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
afterEach(async () => {
  await server.close();
  await rm(workspace, { recursive: true, force: true });
});

describe('agent-team run --agent refactorer', () => {
  it('prints the diffs and changes nothing without --apply', async () => {
    const provider = providerEnvironment('openai', server.baseUrl);
    const { code, stdout } = await startCli(cli.cliPath, ['run', '--agent', 'refactorer', '--workspace', workspace, ...provider.args, 'Rename add to sum'], provider.env).exited;
    expect(code).toBe(0);
    expect(await readFile(path.join(workspace, 'math.ts'), 'utf8')).toBe(originalMath);
    expect(await readFile(path.join(workspace, 'README.md'), 'utf8')).toBe('# Math\n');
    expect(stdout).toContain('-export function add(a: number, b: number) {');
    expect(stdout).toContain('+export function sum(a: number, b: number) {');
    expect(stdout).toContain('+Use `sum` to add numbers.');
    expect(stdout).toContain('Nothing was written');
    const readResult = server.requests.at(-1)?.lastMessageText ?? '';
    expect(readResult).toContain('export function sum(');
  });

  it('emits change-proposed events with unified diffs in --json mode', async () => {
    const provider = providerEnvironment('anthropic', server.baseUrl);
    const { code, stdout } = await startCli(cli.cliPath, ['run', '--json', '--agent', 'refactorer', '--workspace', workspace, ...provider.args, 'Rename add to sum'], provider.env).exited;
    expect(code).toBe(0);
    const proposed = parseEvents(stdout).filter((event) => event.type === 'change-proposed');
    expect(proposed.map((event) => event.path).sort()).toEqual(['README.md', 'math.ts']);
    const mathDiff = String(proposed.find((event) => event.path === 'math.ts')?.diff);
    expect(mathDiff).toMatch(/^--- a\/math\.ts\n\+\+\+ b\/math\.ts\n@@ -1,4 \+1,4 @@/m);
    expect(await readFile(path.join(workspace, 'math.ts'), 'utf8')).toBe(originalMath);
  });

  it('applies both files exactly with --apply', async () => {
    const provider = providerEnvironment('openai', server.baseUrl);
    const { code, stdout } = await startCli(cli.cliPath, ['run', '--apply', '--agent', 'refactorer', '--workspace', workspace, ...provider.args, 'Rename add to sum'], provider.env).exited;
    expect(code).toBe(0);
    expect(await readFile(path.join(workspace, 'math.ts'), 'utf8')).toBe(expectedMath);
    expect(await readFile(path.join(workspace, 'README.md'), 'utf8')).toBe(expectedReadme);
    expect(stdout).toContain('applied: math.ts');
    expect(stdout).toContain('applied: README.md');
  });
});
