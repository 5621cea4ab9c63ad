/**
 * An MCP server whose program lives under /tmp (a clone or a release unpacked there, as CI does), through
 * the real CLI bundle: the sandbox's private /tmp hid it and the role's tools never appeared ("Unknown tool
 * mcp__calc__add"). Its folder is read back, read-only; the rest of /tmp stays private: a file in another
 * folder under /tmp is out of its sight, and what it writes beside its script is not kept.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mcpTestServer } from '../support/calculator-role.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.md': 'Sum things.\n' });
let serverFolder: string;
let neighbour: string;

beforeEach(async () => {
  // Under /tmp itself whatever TMPDIR says: the sandbox's private folder is /tmp.
  serverFolder = await mkdtemp('/tmp/agent-team-server-');
  await mkdir(path.join(serverFolder, 'bin'));
  await copyFile(mcpTestServer, path.join(serverFolder, 'bin', 'server.mjs'));
  // The script imports the SDK from the node_modules beside it, as an unpacked server does.
  await symlink(path.resolve(__dirname, '../../node_modules'), path.join(serverFolder, 'node_modules'));
  await writeFile(path.join(serverFolder, 'bin', 'data.txt'), 'beside the script');
  neighbour = await mkdtemp('/tmp/agent-team-neighbour-');
  await writeFile(path.join(neighbour, 'secret.txt'), 'canary-tmp-5e6f');
});

afterEach(async () => {
  await rm(serverFolder, { recursive: true, force: true });
  await rm(neighbour, { recursive: true, force: true });
});

it('a role whose server lives under /tmp calls its tools in the sandbox; the rest of /tmp stays out of its sight', async () => {
  const script = path.join(serverFolder, 'bin', 'server.mjs');
  await mkdir(path.join(world.workspace, '.agent-team', 'agents'), { recursive: true });
  const role = [
    '---',
    'name: calculator',
    'description: Adds numbers.',
    'tools: [Read]',
    'mcpServers:',
    '  calc:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(script)}]`,
    '---',
    'You add numbers with your calculator.',
  ];
  await writeFile(path.join(world.workspace, '.agent-team', 'agents', 'calculator.md'), role.join('\n'));
  const probed = [path.join(serverFolder, 'bin', 'data.txt'), path.join(neighbour, 'secret.txt')];
  world.server.respondWith((request) => {
    if (request.system.startsWith('You add numbers')) {
      if (priorTurns(request) === 0) return toolCallTurn([{ name: 'mcp__calc__add', input: { a: 20, b: 22 } }]);
      if (priorTurns(request) === 1) return toolCallTurn([{ name: 'mcp__calc__probe', input: { paths: probed } }]);
      if (priorTurns(request) === 2)
        return toolCallTurn([{ name: 'mcp__calc__write', input: { path: path.join(serverFolder, 'bin', 'data.txt'), text: 'changed' } }]);
      return textTurn(`Done: ${request.lastMessageText}`);
    }
    if (agentOf(request) !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
    return priorTurns(request) === 0
      ? toolCallTurn([{ name: 'Agent', input: { subagent_type: 'calculator', description: 'Add', prompt: 'What is 20 + 22?' } }])
      : textTurn(`Answer: ${request.lastMessageText}`);
  });
  const provider = providerEnvironment('anthropic', world.server.baseUrl);
  const { code, stdout, stderr } = await startCli(
    world.cliPath,
    ['run', '--json', '--workspace', world.workspace, '--trust', ...provider.args, 'Add 20 and 22'],
    provider.env,
  ).exited;
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(parseEvents(stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  const results = world.server.requests
    .filter((request) => request.system.startsWith('You add numbers'))
    .map((request) => request.lastMessageText);
  expect(results[1]).toBe('42');
  expect(results[2]).toContain(`${probed[0]}: beside the script`);
  expect(results[2]).toContain(`${probed[1]}: unreadable (ENOENT)`);
  expect(results[2]).not.toContain('canary-tmp-5e6f');
  // Its folder is read back read-only: the write fails and the file is unchanged.
  expect(results[3]).toContain('could not write');
  expect(await readFile(path.join(serverFolder, 'bin', 'data.txt'), 'utf8')).toBe('beside the script');
});
