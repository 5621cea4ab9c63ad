/** `agent-team run --trace <file>`: the run's trace as Markdown or JSON, through the real CLI bundle. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpError, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'a.ts': 'export const a = 1;\n' });
const secret = 'sk-test-abcdefghijklmnopqrstuvwxyz123456';

function scriptRun(): void {
  world.server.respondWith((request) => {
    if (agentOf(request) === 'refactorer') {
      return priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2 /* ``` not a fence end */' } }])
        : textTurn('Changed a.');
    }
    return priorTurns(request) === 0
      ? toolCallTurn([{ name: 'Agent', input: { subagent_type: 'refactorer', description: 'Change a', prompt: 'Set a to 2.' } }])
      : textTurn('Done: a is 2.');
  });
}

async function run(traceFile: string, task = 'Set a to 2'): Promise<number | null> {
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const result = await startCli(
    world.cliPath,
    ['run', '--json', '--workspace', world.workspace, '--trace', path.join(world.workspace, traceFile), ...provider.args, task],
    { ...provider.env, OPENAI_API_KEY: secret },
  ).exited;
  return result.code;
}

describe('agent-team run --trace', () => {
  it('writes Markdown for a pull request: the tree, the prompts, the tool calls, the answer and the diff, secrets redacted', async () => {
    scriptRun();
    expect(await run('trace.md', `Set a to 2 (my key is ${secret})`)).toBe(0);
    const markdown = await readFile(path.join(world.workspace, 'trace.md'), 'utf8');
    expect(markdown).toMatch(/^# Agent Team run t1: Set a to 2/);
    expect(markdown).toContain('| t1 | coordinator |');
    expect(markdown).toContain('| \u2003t2 | refactorer | Change a |');
    expect(markdown).toContain('Set a to 2.');
    expect(markdown).toContain('- `Edit`');
    expect(markdown).toContain('Done: a is 2.');
    const diff = markdown.slice(markdown.indexOf('**a.ts**'));
    expect(diff.split('\n').slice(0, 3)).toEqual(['**a.ts** (+1 \u22121, pending)', '', '````diff']);
    expect(diff).toContain('+export const a = 2 /* ``` not a fence end */;\n````\n');
    expect(markdown).not.toContain(secret);
  });

  it('writes JSON (version 1) with every task, its usage, transcript and changes; and a trace for a failed run too', async () => {
    scriptRun();
    expect(await run('trace.json')).toBe(0);
    const trace = JSON.parse(await readFile(path.join(world.workspace, 'trace.json'), 'utf8'));
    expect(trace).toMatchObject({ version: 1, run: { id: 't1', role: 'coordinator', status: 'completed', output: 'Done: a is 2.' } });
    expect(trace.tasks.map((task: { id: string }) => task.id)).toEqual(['t1', 't2']);
    const refactorer = trace.tasks[1];
    expect(refactorer).toMatchObject({
      parentId: 't1',
      model: 'openai/gpt-5-mini',
      usage: { inputTokens: 20, outputTokens: 10 },
      changes: [{ path: 'a.ts', added: 1, removed: 1 }],
    });
    expect(refactorer.transcript[0]).toMatchObject({ type: 'tool-call', toolName: 'Edit', input: { file_path: 'a.ts' } });

    world.server.respondWith(() => httpError(400, { message: 'the model does not exist' }));
    expect(await run('failed.json')).toBe(1);
    const failed = JSON.parse(await readFile(path.join(world.workspace, 'failed.json'), 'utf8'));
    expect(failed.run).toMatchObject({ status: 'failed', error: expect.stringContaining('the model does not exist') });
  });

  it('a trace that cannot be written is reported; the run keeps its result', async () => {
    scriptRun();
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stderr } = await startCli(
      world.cliPath,
      [
        'run',
        '--workspace',
        world.workspace,
        '--trace',
        path.join(world.workspace, 'no-such-folder', 't.md'),
        ...provider.args,
        'Set a to 2',
      ],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(stderr).toMatch(/agent-team: could not write the trace to .*no-such-folder\/t\.md: .*ENOENT/);
  });
});
