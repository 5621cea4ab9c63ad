/**
 * A run with proposals in the workspace's run history, through the real CLI and the mock provider: a
 * refactorer renames `add` to `sum` in math.ts and rewrites README.md (or, `fails`, proposes the rename
 * and then fails). Returns the run's id as `agent-team runs --json` gives it.
 */
import { expect } from 'vitest';
import { httpError, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import type { CliWorld } from './cli-world.js';

export const originalMath =
  'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n';
export const expectedMath = originalMath.replace('function add(', 'function sum(');
export const originalReadme = '# Math\n';
export const expectedReadme = '# Math\n\nUse `sum` to add numbers.\n';

export async function runRefactorer(
  world: CliWorld,
  options: { fails?: boolean; environment?: Record<string, string> } = {},
): Promise<string> {
  world.server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
    if (priorTurns(request) === 0) {
      return toolCallTurn([
        { name: 'Edit', input: { file_path: 'math.ts', old_string: 'export function add(', new_string: 'export function sum(' } },
        { name: 'Write', input: { file_path: 'README.md', content: expectedReadme } },
      ]);
    }
    return options.fails ? httpError(400, { message: 'the model refused' }) : textTurn('Renamed add to sum and documented it.');
  });
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const environment = { ...provider.env, ...options.environment };
  const run = await startCli(
    world.cliPath,
    ['run', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Rename add to sum'],
    environment,
  ).exited;
  expect(run.code, run.stderr).toBe(options.fails ? 1 : 0);
  const listed = await startCli(world.cliPath, ['runs', '--json', '--workspace', world.workspace], environment).exited;
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout.split('\n')[0]!) as { runId: string }).runId;
}
