/**
 * Model failover through the real CLI bundle and both SDKs against the mock provider: with
 * `--fallback-model`, a model the provider answers 529 for (after the retries) gives way to the next and
 * the run completes; the JSON events, the transcript and the trace say so; `task-end` counts usage and
 * cost by model; a 401 fails as before, never failing over; a role file's `fallbackModels` does the same.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type MockProtocol,
  type RecordedRequest,
  serverError,
  streamError,
  textTurn,
  toolCallTurn,
  unauthorized,
} from '../support/mock-provider/index.js';
import { type CliEvent, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.txt': 'hello\n' });

function run(protocol: MockProtocol, args: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(
    world.cliPath,
    ['run', '--json', '--workspace', world.workspace, ...provider.args, ...args, 'Summarize the notes'],
    provider.env,
  ).exited;
}

const modelOf = (request: RecordedRequest) => (request.body as { model?: string }).model;
const requestsTo = (model: string) => world.server.requests.filter((request) => modelOf(request) === model).length;
const notices = (events: CliEvent[]) => events.filter((event) => event.type === 'notice').map((event) => String(event.text));

describe.each<MockProtocol>(['anthropic', 'openai'])('model failover (%s)', (protocol) => {
  it('--fallback-model: a model answered 529 after its retries gives way to the next, the run completes, and the events say so', async () => {
    world.server.respondWith((request) => (modelOf(request) === 'model-one' ? serverError(529) : textTurn('Answered by model two.')));
    const { code, stdout, stderr } = await run(protocol, [
      '--model',
      'model-one',
      '--fallback-model',
      'model-two',
      '--agent',
      'researcher',
    ]);
    // Said on stderr as it happens, for the user who may want to fix the first model.
    expect(stderr).toMatch(new RegExp(`^agent-team: model ${protocol}/model-one failed \\(.*\\); continuing on ${protocol}/model-two\n$`));
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Answered by model two.' });
    // The provider stream's own retries first (2 by default), then the next model.
    expect(requestsTo('model-one')).toBe(3);
    expect(requestsTo('model-two')).toBe(1);
    expect(notices(events)).toEqual([
      expect.stringMatching(new RegExp(`^model ${protocol}/model-one failed \\(.*529.*\\); continuing on ${protocol}/model-two$`)),
    ]);
  });

  it('counts usage and cost by model in task-end, and the trace shows the switch', async () => {
    // model-one does the first turn, then is overloaded; model-two does the rest.
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) return toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }]);
      return modelOf(request) === 'model-one' ? serverError(529) : textTurn('The notes say hello.');
    });
    const prices = path.join(world.workspace, 'prices.json');
    // Per million tokens; each turn is 10 in, 5 out: model-one $0.00002 + $0.00001, model-two ten times that.
    await writeFile(
      prices,
      JSON.stringify({ [`${protocol}/model-one`]: { input: 2, output: 2 }, [`${protocol}/model-two`]: { input: 20, output: 20 } }),
    );
    const trace = path.join(world.workspace, 'trace.json');
    const { code, stdout } = await run(protocol, [
      '--model',
      'model-one',
      '--fallback-model',
      'model-two',
      '--agent',
      'researcher',
      '--model-prices',
      prices,
      '--trace',
      trace,
    ]);
    expect(code).toBe(0);
    const end = parseEvents(stdout).find((event) => event.type === 'task-end');
    expect(end?.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(end?.usageByModel).toEqual([
      {
        model: `${protocol}/model-one`,
        usage: { inputTokens: 10, outputTokens: 5 },
        cost: { usd: expect.closeTo(0.00003, 9), unpricedTokens: 0 },
      },
      {
        model: `${protocol}/model-two`,
        usage: { inputTokens: 10, outputTokens: 5 },
        cost: { usd: expect.closeTo(0.0003, 9), unpricedTokens: 0 },
      },
    ]);
    expect(end?.costUsd).toBeCloseTo(0.00033, 9);
    const traced = JSON.parse(await readFile(trace, 'utf8')) as {
      run: { model: string; usageByModel: unknown[]; transcript: Array<{ type: string; text?: string }> };
    };
    expect(traced.run.model).toBe(`${protocol}/model-two`);
    expect(traced.run.usageByModel).toHaveLength(2);
    expect(traced.run.transcript.filter((entry) => entry.type === 'notice').map((entry) => entry.text)).toEqual([
      expect.stringContaining(`continuing on ${protocol}/model-two`),
    ]);
  });

  it('a model overloaded mid-answer: its partial answer is discarded and the turn starts over on the next', async () => {
    world.server.respondWith((request) =>
      modelOf(request) === 'model-one' ? streamError({ text: ['Half an ans'] }, 'Overloaded') : textTurn('The whole answer.'),
    );
    const { code, stdout } = await run(protocol, ['--model', 'model-one', '--fallback-model', 'model-two', '--agent', 'researcher']);
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'The whole answer.' });
    // Streamed live before the failure, then voided: the notice says so.
    expect(events.filter((event) => event.type === 'text-delta').map((event) => event.text)).toEqual(['Half an ans', 'The whole answer.']);
    expect(notices(events)).toEqual([
      expect.stringMatching(/Overloaded.*; continuing on .*model-two \(its partial answer is discarded: the turn starts over\)$/),
    ]);
    // Output was handed on, so model-one was not tried again (no retry after output).
    expect(requestsTo('model-one')).toBe(1);
  });

  it('a 401 fails the run as it always did: no fallback is asked', async () => {
    world.server.respondWith((request) => (modelOf(request) === 'model-one' ? unauthorized() : textTurn('never')));
    const { code, stdout } = await run(protocol, ['--model', 'model-one', '--fallback-model', 'model-two', '--agent', 'researcher']);
    expect(code).toBe(1);
    const events = parseEvents(stdout);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'failed' });
    expect(String(events.at(-1)?.error)).toContain('(401)');
    expect(requestsTo('model-two')).toBe(0);
    expect(notices(events)).toEqual([]);
  });

  it('a role file\u2019s fallbackModels: the role\u2019s own fallbacks first, then the run\u2019s', async () => {
    await mkdir(path.join(world.workspace, '.agent-team/agents'), { recursive: true });
    await writeFile(
      path.join(world.workspace, '.agent-team/agents/summarizer.md'),
      '---\ndescription: Summarizes notes.\nmodel: role-model\nfallbackModels: [role-fallback]\ntools: [Read]\n---\nYou are a summarizer.\n',
    );
    world.server.respondWith((request) =>
      modelOf(request) === 'run-fallback' ? textTurn('Summarized on the run\u2019s fallback.') : serverError(529),
    );
    const { code, stdout, stderr } = await run(protocol, [
      '--model',
      'run-model',
      '--fallback-model',
      'run-fallback',
      '--agent',
      'summarizer',
    ]);
    expect(stderr.split('\n').filter((line) => line !== '')).toHaveLength(2);
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Summarized on the run\u2019s fallback.' });
    expect(world.server.requests.map(modelOf).filter((model, index, all) => all.indexOf(model) === index)).toEqual([
      'role-model',
      'role-fallback',
      'run-fallback',
    ]);
    expect(notices(events)).toEqual([
      expect.stringContaining(`model ${protocol}/role-model failed (`),
      expect.stringContaining(`model ${protocol}/role-fallback failed (`),
    ]);
  });
});

describe('model failover: bad input', () => {
  it('--fallback-model needs a model id, and belongs to run', async () => {
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const blank = await startCli(
      world.cliPath,
      ['run', '--workspace', world.workspace, ...provider.args, '--fallback-model', 'two words', 'Hi'],
      provider.env,
    ).exited;
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--fallback-model needs a model id');
    const elsewhere = await startCli(world.cliPath, ['agents', '--workspace', world.workspace, '--fallback-model', 'm2'], provider.env)
      .exited;
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('--fallback-model belongs to "run"');
  });
});
