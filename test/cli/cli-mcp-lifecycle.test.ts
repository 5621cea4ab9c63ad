/**
 * `agent-team mcp` belongs to its client, tried through the real CLI bundle with clients no one here
 * wrote (the MCP Inspector's CLI) and the TypeScript SDK's: the Inspector lists and calls the tools and
 * leaves no server behind; a client that goes mid-run stops the run and the server exits; a cancelled
 * call stops its run; a message over the size limit gets a JSON-RPC error and the server goes on.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { maxActiveRuns } from '../../src/engine/servers/served-team.js';
import { maxMcpMessageBytes } from '../../src/engine/servers/mcp/mcp-stdio-transport.js';
import { processesMarked } from '../commands/bash-support.js';
import { hangingStream, textTurn } from '../support/mock-provider/index.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });
const inspector = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
  'index.js',
);
const serverArgs = () => [
  world.cliPath,
  'mcp',
  '--workspace',
  world.workspace,
  '--provider',
  'openai',
  '--base-url',
  `${world.server.baseUrl}/v1`,
];
const environment = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_API_KEY: 'test-key' });

/** Runs the Inspector's CLI against our server; resolves with what it printed. */
function runInspector(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [inspector, process.execPath, ...serverArgs(), ...args], {
      env: environment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The server processes of this test's workspace still alive. */
const serversAlive = () => processesMarked(world.workspace).length;

describe('the MCP Inspector as the client', () => {
  it('lists the tools, delegates a task, and leaves no server behind', async () => {
    const listed = await runInspector('--method', 'tools/list');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual([
      'apply_hunks',
      'delegate',
      'task_output',
      'task_stop',
    ]);
    world.server.respondWith(() => textTurn('The parser is in parser.ts:1.'));
    const called = await runInspector(
      '--method',
      'tools/call',
      '--tool-name',
      'delegate',
      '--tool-arg',
      'subagent_type=researcher',
      'description=Find it',
      'prompt=Where is the parser?',
    );
    expect(called.code).toBe(0);
    expect(called.stdout).toContain('The parser is in parser.ts:1.');
    await expect.poll(serversAlive, { timeout: 10_000 }).toBe(0);
  });
});

describe('the TypeScript SDK as the client', () => {
  async function connect(): Promise<{ client: Client; transport: StdioClientTransport }> {
    const transport = new StdioClientTransport({ command: process.execPath, args: serverArgs(), env: environment(), stderr: 'pipe' });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport };
  }

  it('a client that goes mid-run: the run is stopped and the server exits', async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    const { client } = await connect();
    void client
      .callTool({ name: 'delegate', arguments: { subagent_type: 'researcher', description: 'Think', prompt: 'Think long' } })
      .catch(() => undefined);
    await world.server.waitForRequest(0);
    expect(serversAlive()).toBe(1);
    await client.close();
    // The run's request is closed (the run stopped), and the process is gone.
    await world.server.waitForClientClose(0);
    await expect.poll(serversAlive, { timeout: 10_000 }).toBe(0);
  });

  it('a cancelled call (notifications/cancelled) stops its run', async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    const { client } = await connect();
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'delegate', arguments: { subagent_type: 'researcher', description: 'Think', prompt: 'Think long' } },
        undefined,
        { signal: controller.signal },
      );
      await world.server.waitForRequest(0);
      controller.abort();
      await expect(call).rejects.toThrow();
      await world.server.waitForClientClose(0);
      const output = await client.callTool({ name: 'task_output', arguments: { task_id: 't1' } });
      expect(JSON.stringify(output)).toContain('was stopped by the user');
    } finally {
      await client.close();
    }
  });

  it(`takes at most ${maxActiveRuns} runs at once; one more is refused in words, not queued forever`, async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    const { client } = await connect();
    try {
      for (let index = 0; index < maxActiveRuns; index++) {
        const started = await client.callTool({
          name: 'delegate',
          arguments: { subagent_type: 'researcher', description: `Think ${index}`, prompt: 'Think long', run_in_background: true },
        });
        expect(started.isError).toBeFalsy();
      }
      const refused = await client.callTool({
        name: 'delegate',
        arguments: { subagent_type: 'researcher', description: 'One more', prompt: 'Think long', run_in_background: true },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused)).toContain(`the most it takes at once (${maxActiveRuns})`);
    } finally {
      await client.close();
    }
  });

  it('a message over the size limit gets a JSON-RPC error; the server goes on', async () => {
    const child = spawn(process.execPath, serverArgs(), { env: environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const lineCount = () => stdout.split('\n').filter((line) => line.trim() !== '').length;
    child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'a'.repeat(maxMcpMessageBytes + 10)}"}}\n`);
    await expect.poll(lineCount, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(stdout.split('\n')[0])).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    child.stdin.write('not json\n');
    await expect.poll(lineCount, { timeout: 10_000 }).toBe(2);
    expect(JSON.parse(stdout.split('\n')[1])).toMatchObject({ id: null, error: { code: -32700 } });
    child.stdin.write(
      '{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n',
    );
    await expect.poll(lineCount, { timeout: 10_000 }).toBe(3);
    expect(JSON.parse(stdout.split('\n')[2])).toMatchObject({ id: 2, result: { serverInfo: { name: 'agent-team' } } });
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
  });
});
