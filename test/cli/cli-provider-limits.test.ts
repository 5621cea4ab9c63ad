/**
 * Provider limits through the real CLI bundle, over the real SDKs and the mock provider: an API key the
 * provider echoes in an error never reaches the terminal, the JSON events or a later model request; and
 * Ctrl-C during a long retry-after wait ends the run at once.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, httpError, rateLimited, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n' });

/** Realistic keys: the shapes the real providers hand out. */
const keys: Record<MockProtocol, string> = {
  anthropic: 'sk-ant-api03-Ht5Yp2Wq8Zr1Lm6Nx3Kc9Vb4Jd7Fg0Sa-Qe2Rt5Yu8Io1Pa4Sd7Fg0Hj3Kl6Zx9Cv2Bn5Mq-Wk3Lp8NhTAA',
  openai: 'sk-proj-Vq7Lm2Xr9Tn4Bk6Zc1Wd8Yh3Fj5Gs0Ap-Eu7Io4Ty1Re9Wq6Za3Sx8Dc5Fv2Gb0Hn7Jm4Kl1Po9IuT3BlbkFJq',
};

function providerArgs(protocol: MockProtocol): { args: string[]; env: Record<string, string> } {
  const baseUrl = protocol === 'anthropic' ? world.server.baseUrl : `${world.server.baseUrl}/v1`;
  const variable = protocol === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  return { args: ['--provider', protocol, '--base-url', baseUrl], env: { [variable]: keys[protocol] } };
}

/** Every file under `directory`, read as text. */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(files.map((file) => readFile(file, 'utf8')));
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run: provider limits (%s)', (protocol) => {
  it.each([
    { output: 'JSON events', outputArgs: ['--json'] },
    { output: 'the terminal view', outputArgs: [] },
  ])('keeps a key the provider echoes out of $output and out of later requests', async ({ outputArgs }) => {
    const apiKey = keys[protocol];
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      // A misbehaving proxy: the researcher's request is refused with its key quoted back, twice over.
      if (agent === 'researcher')
        return httpError(401, { message: `invalid x-api-key ${request.apiKey ?? ''}; Authorization: Bearer ${request.apiKey ?? ''}` });
      if (priorTurns(request) === 0) {
        return toolCallTurn([
          { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find date parsing', prompt: 'Where are dates parsed?' } },
        ]);
      }
      return textTurn('The researcher could not run: the provider refused its key.');
    });

    const provider = providerArgs(protocol);
    const run = startCli(
      world.cliPath,
      ['run', ...outputArgs, '--workspace', world.workspace, ...provider.args, 'Find the date parsing'],
      provider.env,
    );
    const { code, stdout, stderr } = await run.exited;
    expect(code).toBe(0);

    // The key was live: every request presented it, and the researcher's refusal quoted it.
    const requests = world.server.requests;
    expect(requests.map((request) => request.apiKey)).toEqual(requests.map(() => apiKey));
    const researcher = requests.find((request) => agentOf(request) === 'researcher');
    expect(researcher).toBeDefined();

    // Not in one line of either stream.
    for (const line of `${stdout}\n${stderr}`.split('\n')) expect(line).not.toContain(apiKey);
    expect(`${stdout}${stderr}`).toContain('rejected the API key (401): invalid x-api-key [redacted]; Authorization: Bearer [redacted]');
    if (outputArgs.includes('--json')) {
      const failed = parseEvents(stdout).find((event) => event.type === 'task-end' && event.status === 'failed');
      expect(failed?.error).toMatch(/rejected the API key \(401\): invalid x-api-key \[redacted\]/);
    }

    // The coordinator's next request carried the failure, redacted; no request body carries the key.
    const coordinatorAfter = requests.filter((request) => agentOf(request) === 'coordinator' && priorTurns(request) === 1);
    expect(coordinatorAfter).toHaveLength(1);
    expect(JSON.stringify(coordinatorAfter[0].body)).toContain('invalid x-api-key [redacted]');
    for (const request of requests) expect(JSON.stringify(request.body)).not.toContain(apiKey);
    // Nor anything the run left in the workspace.
    for (const text of await filesUnder(world.workspace)) expect(text).not.toContain(apiKey);
  });

  it('exits 130 at once on Ctrl-C during a long retry-after wait, and sends no further request', async () => {
    world.server.respondWith(() => rateLimited({ headers: { 'retry-after': '50', 'retry-after-ms': '50000' } }));
    const provider = providerArgs(protocol);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Find the date parsing'],
      provider.env,
    );
    await world.server.waitForRequest(0);
    await world.server.waitForResponseSent(0);
    run.child.kill('SIGINT');

    // Waiting out the 50 s would outlast the test's own timeout: the wait has to end with the signal.
    const { code, stdout } = await run.exited;
    expect(code).toBe(130);
    expect(world.server.requests).toHaveLength(1);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-end').map((event) => event.status)).toEqual(['stopped']);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
  });
});
