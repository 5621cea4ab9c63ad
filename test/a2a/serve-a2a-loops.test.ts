/**
 * A2A loops through the real CLI bundle: `agent-team serve --a2a` whose remote role points back at itself,
 * and two servers whose remote roles point at each other. Each fails fast, with words that say why, where
 * it used to hold a run (and a concurrency slot) on every lap until the servers deadlocked. Every
 * coordinator (on the mock provider) hands the task to the remote role `loop`, then reports what it got.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientFactory } from 'a2a-sdk-v03/client';
import type { Message, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { type CliRun, parseEvents, priorTurns, providerEnvironment, startCli } from '../cli/cli-harness.js';
import { useCliWorld } from '../cli/cli-world.js';

const world = useCliWorld({ 'README.md': '# Demo\n' });
const running: CliRun[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const served of running.splice(0)) {
    served.child.kill('SIGTERM');
    await served.exited;
  }
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A port free now: a role file must name the server's address before the server starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function loopRole(workspace: string, port: number): Promise<void> {
  await mkdir(path.join(workspace, '.agent-team', 'agents'), { recursive: true });
  await writeFile(
    path.join(workspace, '.agent-team', 'agents', 'loop.md'),
    `---\nname: loop\ndescription: Another team, served over A2A.\na2a_url: http://127.0.0.1:${port}/\n---\n`,
  );
}

async function serve(workspace: string, port: number): Promise<void> {
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const served = startCli(
    world.cliPath,
    ['serve', '--a2a', '--port', String(port), '--no-auth', '--trust', '--workspace', workspace, ...provider.args],
    provider.env,
  );
  running.push(served);
  await served.waitForStderr('(agent card:');
}

/** Every coordinator hands the task to `loop`, then answers with what came back. */
function coordinatorsDelegateToLoop(): void {
  world.server.respondWith((request) =>
    priorTurns(request) === 0
      ? toolCallTurn([{ name: 'Agent', input: { subagent_type: 'loop', description: 'Ask the other team', prompt: 'Where is main?' } }])
      : textTurn(`Result: ${request.lastMessageText}`),
  );
}

/** `agent-team run --agent loop` in `workspace`: the user's run, whose role is the remote one. */
async function runLoop(workspace: string) {
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const run = await startCli(
    world.cliPath,
    ['run', '--json', '--agent', 'loop', '--workspace', workspace, '--trust', ...provider.args, 'Where is main?'],
    provider.env,
  ).exited;
  return { ...run, output: JSON.stringify(parseEvents(run.stdout).at(-1)) };
}

describe('A2A loops through serve --a2a', () => {
  it('a remote role pointing at its own server is refused there at once, and the user hears why', async () => {
    const port = await freePort();
    await loopRole(world.workspace, port);
    coordinatorsDelegateToLoop();
    await serve(world.workspace, port);
    const { code, output } = await runLoop(world.workspace);
    expect(code).toBe(0);
    expect(output).toContain("Role 'loop' runs on the remote agent at");
    expect(output).toContain('which is this agent-team server itself');
    // One coordinator on the server, two turns: no second lap.
    expect(world.server.requests).toHaveLength(2);
  });

  it('two servers pointing at each other: the request is refused after 3 servers, and every run ends', async () => {
    const [first, second] = [await freePort(), await freePort()];
    const other = await mkdtemp(path.join(tmpdir(), 'agent-team-ws-'));
    folders.push(other);
    await loopRole(world.workspace, second);
    await loopRole(other, first);
    coordinatorsDelegateToLoop();
    await serve(world.workspace, first);
    await serve(other, second);
    const { code, output } = await runLoop(world.workspace);
    expect(code).toBe(0);
    expect(output).toContain(
      'rejected the task: refused: this request has passed through 3 agent-team servers; a remote role probably points back at this server',
    );
    // Servers 1, 2 and 3 (second, first, second) each ran a coordinator for two turns; the fourth refused.
    expect(world.server.requests).toHaveLength(6);
  });

  it('a request that says it has passed through 3 servers is refused before any run starts', async () => {
    const port = await freePort();
    await serve(world.workspace, port);
    const client = await new ClientFactory().createFromUrl(`http://127.0.0.1:${port}/`);
    const message: Message = {
      kind: 'message',
      messageId: randomUUID(),
      role: 'user',
      parts: [{ kind: 'text', text: 'Where is main?' }],
      metadata: { 'agentTeam/hops': 3 },
    };
    const events: unknown[] = [];
    for await (const event of client.sendMessageStream({ message })) events.push(event);
    const final = events.at(-1) as TaskStatusUpdateEvent;
    expect(final).toMatchObject({ kind: 'status-update', final: true, status: { state: 'rejected' } });
    expect(JSON.stringify(final.status.message?.parts)).toContain('refused: this request has passed through 3 agent-team servers');
    expect(world.server.requests).toHaveLength(0);
  });
});
