/**
 * Cost right by default, through the real CLI bundle against the mock provider: the default models have a
 * price (a number, never "unknown"); `--budget-usd` over a model with no price refuses to start (exit 2,
 * no request made) and says how to add a price, which then lets the run start; `agent-team models` shows
 * the price list's date; a deprecated model's SDK notice is one warning of ours for the run, not a copy
 * per request.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPricesAsOf } from '../../src/engine/model/model-prices.js';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.txt': 'hello\n' });
const usage = { inputTokens: 1000, outputTokens: 100 };

function run(protocol: MockProtocol, args: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(
    world.cliPath,
    ['run', '--json', '--workspace', world.workspace, ...provider.args, ...args, 'Summarize the notes'],
    provider.env,
  ).exited;
}

describe('cost right by default', () => {
  it.each<MockProtocol>(['anthropic', 'openai'])('prices the default %s model: the cost is a number', async (protocol) => {
    world.server.respondWith(() => ({ ...textTurn('Hello.'), usage }));
    const { code, stdout } = await run(protocol, ['--agent', 'researcher']);
    expect(code).toBe(0);
    const end = parseEvents(stdout).at(-1);
    expect(end?.cost).toMatchObject({ unpricedTokens: 0 });
    expect(end?.costUsd).toBeGreaterThan(0);
  });

  it('refuses --budget-usd with a model that has no price, before any request, and says how to add one', async () => {
    world.server.respondWith(() => ({ ...textTurn('Hello.'), usage }));
    const refused = await run('openai', ['--model', 'my-local-model', '--agent', 'researcher', '--budget-usd', '0.0001']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--budget-usd 0.0001 cannot be kept: openai/my-local-model has no price');
    expect(refused.stderr).toContain('--model-prices <file>');
    expect(world.server.requests).toHaveLength(0);

    const prices = path.join(world.workspace, 'prices.json');
    await writeFile(prices, JSON.stringify({ 'openai/my-local-model': { input: 1, output: 4 } }));
    const priced = await run('openai', [
      '--model',
      'my-local-model',
      '--agent',
      'researcher',
      '--budget-usd',
      '5',
      '--model-prices',
      prices,
    ]);
    expect(priced.code).toBe(0);
  });

  it('refuses --budget-usd when a role names a model with no price', async () => {
    await mkdir(path.join(world.workspace, '.claude', 'agents'), { recursive: true });
    await writeFile(
      path.join(world.workspace, '.claude', 'agents', 'local.md'),
      '---\nname: local\ndescription: Runs on a local model\nmodel: my-local-model\n---\nYou help.\n',
    );
    const refused = await run('openai', ['--agent', 'researcher', '--budget-usd', '1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('openai/my-local-model has no price');
    expect(refused.stderr).not.toContain('gpt-5-mini');
  });

  it('turns the SDK\u2019s deprecation notice into one warning of ours for the whole run', async () => {
    world.server.respondWith((request) =>
      priorTurns(request) < 4 ? toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }]) : textTurn('Done.'),
    );
    const { code, stderr } = await run('anthropic', ['--model', 'claude-sonnet-4-5', '--agent', 'researcher']);
    expect(code).toBe(0);
    expect(world.server.requests).toHaveLength(5);
    expect(stderr).not.toContain('Please migrate');
    expect(stderr.match(/anthropic\/claude-sonnet-4-5 is deprecated and reaches end of life on/g)).toHaveLength(1);
  });

  it('shows the defaults and the price list with its date in agent-team models, the user\u2019s prices over it', async () => {
    const prices = path.join(world.workspace, 'prices.json');
    await writeFile(prices, JSON.stringify({ 'openai/gpt-5-mini': { input: 9, output: 99 } }));
    const shown = await startCli(world.cliPath, ['models', '--model-prices', prices], {}).exited;
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`list of ${listPricesAsOf}`);
    expect(shown.stdout).toMatch(/anthropic\s+claude-sonnet-5-5/);
    expect(shown.stdout).toMatch(/anthropic\/claude-sonnet-5-5 +\$3 \/ \$15 \/ \$0\.3 +\(estimate/);
    expect(shown.stdout).toMatch(/openai\/gpt-5-mini +\$9 \/ \$99 \/ \$9 +\(your price/);
    const wrong = await startCli(world.cliPath, ['models', '--workspace', world.workspace], {}).exited;
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"models" takes only --model-prices');
  });
});
