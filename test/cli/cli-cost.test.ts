/**
 * Cost in money through the real CLI bundle and both SDKs against the mock provider: each task's cost at
 * its model's price (cached input at its own price) in the JSON events and the summary, a model with no
 * price "unknown" (never $0), `--model-prices` over the list, and `--budget-usd` stopping a run that spends
 * more; a bad price file is a usage error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockProtocol, type MockTurn, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.txt': 'hello\n' });
let files: string;
const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 };
const turn = (base: MockTurn): MockTurn => ({ ...base, usage });

beforeEach(async () => {
  files = await mkdtemp(path.join(tmpdir(), 'agent-team-prices-'));
});

afterEach(async () => {
  await rm(files, { recursive: true, force: true });
});

function run(protocol: MockProtocol, args: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(
    world.cliPath,
    ['run', '--json', '--workspace', world.workspace, ...provider.args, ...args, 'Summarize the notes'],
    provider.env,
  ).exited;
}

describe.each<MockProtocol>(['anthropic', 'openai'])('cost (%s)', (protocol) => {
  it('prices each task at its model (cached input at its own price) and the run as the sum; --model-prices wins over the list', async () => {
    world.server.respondWith((request) => {
      if (agentOf(request) === 'researcher') return turn(textTurn('It says hello.'));
      return priorTurns(request) === 0
        ? turn(
            toolCallTurn([
              { name: 'Agent', input: { subagent_type: 'researcher', description: 'Read the notes', prompt: 'What do the notes say?' } },
            ]),
          )
        : turn(textTurn('The notes say hello.'));
    });
    const model = protocol === 'anthropic' ? 'anthropic/claude-sonnet-5-5' : 'openai/gpt-5-mini';
    const prices = path.join(files, 'prices.json');
    // $2 a million input, $0.50 cached, $10 output: 600k × 2 + 400k × 0.5 + 100k × 10 = $2.40 a turn.
    await writeFile(prices, JSON.stringify({ [model]: { input: 2, output: 10, cachedInput: 0.5 } }));
    // A million input tokens a turn is past gpt-5-mini's window: a window that holds it keeps compaction (a summary call) out.
    const { code, stdout, stderr } = await run(protocol, ['--model-prices', prices, '--context-window', '100000000']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    const researcher = events.find((event) => event.type === 'task-end' && event.taskId !== 't1');
    expect(researcher?.cost).toEqual({ usd: expect.closeTo(2.4, 6), unpricedTokens: 0 });
    expect(events.at(-1)?.cost).toEqual({ usd: expect.closeTo(7.2, 6), unpricedTokens: 0 });
    // The contract's plain figure, beside the detailed one.
    expect(researcher?.costUsd).toBeCloseTo(2.4, 6);
    expect(events.at(-1)?.costUsd).toBeCloseTo(7.2, 6);
  });
});

describe('cost where prices are missing, and budgets in money', () => {
  it('says "unknown" for a model with no price, in the events and the summary, never $0', async () => {
    world.server.respondWith(() => turn(textTurn('Hello.')));
    const json = await run('openai', ['--model', 'my-local-model', '--agent', 'researcher']);
    expect(parseEvents(json.stdout).at(-1)?.cost).toEqual({ usd: 0, unpricedTokens: 1_100_000 });
    expect(parseEvents(json.stdout).filter((event) => 'costUsd' in event)).toEqual([]);
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const text = await startCli(
      world.cliPath,
      ['run', '--workspace', world.workspace, ...provider.args, '--model', 'my-local-model', '--agent', 'researcher', 'Hi'],
      provider.env,
    ).exited;
    expect(text.stdout).toContain('Tokens: 1000000 in, 100000 out · cost unknown');
  });

  it('prices the list\u2019s models without a file (gpt-5-mini), and --budget-usd stops a run that spends more', async () => {
    world.server.respondWith((request) =>
      priorTurns(request) < 5 ? turn(toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }])) : turn(textTurn('Done.')),
    );
    // gpt-5-mini: 600k × $0.25 + 400k × $0.025 + 100k × $2 = $0.36 a turn; the second turn passes $0.50.
    const { code, stdout } = await run('openai', ['--model', 'gpt-5-mini', '--agent', 'researcher', '--budget-usd', '0.50']);
    expect(code).toBe(1);
    const end = parseEvents(stdout).at(-1);
    expect(end?.stopReason).toMatchObject({ kind: 'budget' });
    expect(String((end?.stopReason as { detail?: string }).detail)).toContain('over the budget of $0.5');
    expect(end?.cost).toEqual({ usd: expect.closeTo(0.72, 6), unpricedTokens: 0 });
    expect(world.server.requests).toHaveLength(2);
  });

  it('refuses a price file that is not JSON, and names bad entries while using the rest', async () => {
    const broken = path.join(files, 'broken.json');
    await writeFile(broken, '{ "openai/gpt-5": ');
    const refused = await run('openai', ['--model-prices', broken]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--model-prices ${broken}:`);

    const partial = path.join(files, 'partial.json');
    await writeFile(
      partial,
      JSON.stringify({
        'gpt-5': { input: 1, output: 2 },
        'openai/my-local-model': { input: 1, output: 'free' },
        'openai/other': { input: 1, output: 2 },
      }),
    );
    world.server.respondWith(() => turn(textTurn('Hello.')));
    const used = await run('openai', ['--model', 'my-local-model', '--agent', 'researcher', '--model-prices', partial]);
    expect(used.code).toBe(0);
    expect(used.stderr).toContain('"gpt-5" is not "provider/model"');
    expect(used.stderr).toContain('the price of "openai/my-local-model" needs input and output');
    expect(parseEvents(used.stdout).at(-1)?.cost).toEqual({ usd: 0, unpricedTokens: 1_100_000 });
  });
});
