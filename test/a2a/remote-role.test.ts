/**
 * A role with `a2a_url` in the team, against a remote agent built with the official A2A SDK on 127.0.0.1:
 * its answer reaches the coordinator, its status shows in the task's transcript, Stop cancels it on the
 * remote, and an address nobody answers at (or that never answers) fails the task with a readable error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../src/engine/tasks/types.js';
import type { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { createDeferred } from '../../src/engine/util/deferred.js';
import {
  artifactChunk,
  startTestAgent,
  status,
  type TestAgent,
  type TestAgentBehavior,
  type TestAgentOptions,
} from '../support/a2a-test-agent.js';
import { createTeamHarness, lastMessageText } from '../delegation/team-harness.js';

const { toolCall } = ScriptedModel;
const token = 'kagent-token-0123456789';
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const remoteRole = (url: string) =>
  `---\nname: cluster-helper\ndescription: Answers questions about the cluster.\na2a_url: ${url}\na2a_auth_env: KAGENT_TOKEN\n---\nRuns on kagent.\n`;

async function agent(behavior: TestAgentBehavior, options: TestAgentOptions = {}): Promise<TestAgent> {
  const started = await startTestAgent(behavior, { ...options, versions: options.versions ?? versions });
  closers.push(() => started.close());
  return started;
}

async function team(url: string, environment: Record<string, string> = { KAGENT_TOKEN: token }) {
  const harness = await createTeamHarness({ a2a: (clock) => ({ allowed: () => true, environment, clock }) });
  harness.roleFiles.files.set('.agent-team/agents/cluster-helper.md', remoteRole(url));
  const { diagnostics } = await harness.roles.load();
  expect(diagnostics).toEqual([]);
  closers.push(() => harness.taskManager.close());
  return harness;
}

/** Resolves with the first event of the task manager that matches. */
function nextEvent(taskManager: TaskManager, matches: (event: TaskEvent) => boolean): Promise<TaskEvent> {
  const seen = createDeferred<TaskEvent>();
  const stop = taskManager.onEvent((event) => {
    if (matches(event)) {
      stop();
      seen.resolve(event);
    }
  });
  return seen.promise;
}

/** The protocol versions the test agent's card offers: 1.0 (and 0.3), then 0.3 alone. */
let versions: string[] = ['1.0', '0.3'];

describe.each([
  ['1.0', ['1.0', '0.3']],
  ['0.3', ['0.3']],
])('a remote role over A2A %s', (version, offered) => {
  beforeEach(() => {
    versions = offered;
  });

  it('answers the coordinator: its streamed status in the transcript, its artifact as the output, its usage counted, the token sent', async () => {
    const remote = await agent(async (turn) => {
      status(turn, 'working', 'Looking at the pods');
      artifactChunk(turn, 'The pods ', false);
      artifactChunk(turn, 'are healthy.', true, true);
      status(turn, 'completed', undefined, { usage: { inputTokens: 12, outputTokens: 7 } });
    });
    const harness = await team(remote.url);
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'cluster-helper', description: 'Check the pods', prompt: 'Are the pods healthy?' })],
        'The cluster is fine.',
      );

    const run = await harness.team.delegate({ prompt: 'How is the cluster?' });

    expect(run.task.status).toBe('completed');
    expect(run.task.output).toBe('The cluster is fine.');
    expect(remote.prompts).toEqual(['Are the pods healthy?']);
    expect(remote.authorizations.length).toBeGreaterThanOrEqual(2);
    expect(new Set(remote.authorizations)).toEqual(new Set([`Bearer ${token}`]));
    expect(lastMessageText(harness.model('coordinator').calls[1]!.request)).toContain('The pods are healthy.');
    const [subtask] = harness.taskManager.children(run.task.id);
    expect(subtask).toMatchObject({
      role: 'cluster-helper',
      status: 'completed',
      output: 'The pods are healthy.',
      model: 'a2a/test-remote',
      usage: { inputTokens: 12, outputTokens: 7 },
    });
    const transcript = harness.taskManager.transcript(subtask!.id);
    expect(transcript).toContainEqual({ type: 'notice', text: 'Remote agent: working: Looking at the pods' });
    expect(transcript).toContainEqual({ type: 'notice', text: 'Remote agent: completed' });
    expect(transcript).toContainEqual({
      type: 'notice',
      text: `Remote agent: test-remote, A2A ${version} over JSON-RPC ${version} at ${remote.url}`,
    });
    // The card is asked for as 1.0; the message goes in the version chosen.
    expect(remote.versions).toEqual(['1.0', version]);
  });

  it('Stop cancels the task on the remote agent', async () => {
    const remote = await agent(async (turn) => {
      status(turn, 'working', 'Started a long job');
      await turn.cancelled;
    });
    const harness = await team(remote.url);
    const working = nextEvent(
      harness.taskManager,
      (event) => event.type === 'task-transcript' && event.entry.type === 'notice' && event.entry.text.includes('Started a long job'),
    );

    const run = await harness.team.delegate({ prompt: 'Run the long job', role: 'cluster-helper', mode: 'background' });
    await working;
    const stopped = await harness.taskManager.stop(run.task.id);

    expect(stopped.status).toBe('stopped');
    expect(remote.cancelledTasks).toHaveLength(1);
    // Said while the stopped task winds down, before its end.
    expect(harness.taskManager.transcript(run.task.id)).toContainEqual({
      type: 'notice',
      text: `Remote agent: task ${remote.cancelledTasks[0]} cancelled`,
    });
  });

  it('a remote that refuses the cancel: the transcript says its task may still be running', async () => {
    const remote = await agent(
      async (turn) => {
        status(turn, 'working', 'Started a job that cannot be cancelled');
        await turn.cancelled;
      },
      { refuseCancel: true },
    );
    const harness = await team(remote.url);
    const working = nextEvent(
      harness.taskManager,
      (event) => event.type === 'task-transcript' && event.entry.type === 'notice' && event.entry.text.includes('cannot be cancelled'),
    );
    const run = await harness.team.delegate({ prompt: 'Run it', role: 'cluster-helper', mode: 'background' });
    await working;
    await harness.taskManager.stop(run.task.id);

    const said = harness.taskManager.transcript(run.task.id).map((entry) => (entry.type === 'notice' ? entry.text : ''));
    expect(said).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Remote agent: task \\S+ at ${remote.url.replace(/[.:/]/g, '\\$&')} was not cancelled \\(.*cancellation is not supported.*\\): the remote task may still be running\\.$`,
        ),
      ),
    );
  });

  it('a remote that fails the task fails it here, with what it said', async () => {
    const remote = await agent(async (turn) => status(turn, 'failed', 'the namespace does not exist'));
    const harness = await team(remote.url);
    const run = await harness.team.delegate({ prompt: 'List pods in nowhere', role: 'cluster-helper' });
    expect(run.task.status).toBe('failed');
    expect(run.task.error).toBe(`The remote agent for 'cluster-helper' at ${remote.url} failed: the namespace does not exist`);
  });

  it.each([
    ['input-required', 'input'],
    ['auth-required', 'authentication'],
  ] as const)('a remote that asks for %s: the task fails saying so, and the remote task is cancelled', async (state, what) => {
    const remote = await agent(async (turn) => {
      status(turn, state, 'Which namespace?');
      await turn.cancelled;
    });
    const harness = await team(remote.url);
    const run = await harness.team.delegate({ prompt: 'List the pods', role: 'cluster-helper' });
    expect(run.task.status).toBe('failed');
    expect(run.task.error).toBe(
      `The remote agent for 'cluster-helper' at ${remote.url} asked for ${what}, which a subagent cannot give: Which namespace?`,
    );
    expect(remote.cancelledTasks).toHaveLength(1);
  });

  it('an address where nothing listens fails cleanly, saying why and without the token', async () => {
    const url = await closedPortUrl();
    const harness = await team(`${url}api/a2a/kagent/k8s-agent`);
    const run = await harness.team.delegate({ prompt: 'Anyone there?', role: 'cluster-helper' });
    expect(run.task.status).toBe('failed');
    expect(run.task.error).toBe(
      `The remote agent for 'cluster-helper' at ${url}api/a2a/kagent/k8s-agent could not be reached: the connection was refused (is the agent running, and is the port right?)`,
    );
    expect(JSON.stringify(harness.taskManager.list())).not.toContain(token);
  });

  it('a remote that never answers fails the task when the connect timeout passes on the engine clock', async () => {
    const requested = createDeferred();
    const silent: Server = createServer(() => requested.resolve());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => (silent.closeAllConnections(), silent.close(() => resolve()))));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    const harness = await team(url);

    const run = await harness.team.delegate({ prompt: 'Hello?', role: 'cluster-helper', mode: 'background' });
    await requested.promise;
    await harness.clock.advance(29_000);
    expect(harness.taskManager.get(run.task.id)!.status).toBe('running');
    await harness.clock.advance(1_000);
    const ended = await harness.taskManager.wait(run.task.id);

    expect(ended.status).toBe('failed');
    expect(ended.error).toBe(`The remote agent for 'cluster-helper' at ${url} could not be reached: no answer within 30 s`);
  });

  it("reads the card at kagent's older path when the current one is not there", async () => {
    const remote = await agent(async (turn) => {
      artifactChunk(turn, 'Found by the older card path.', false, true);
      status(turn, 'completed');
    });
    // An agent that serves its card only at .well-known/agent.json (as kagent's controller does), in front of the SDK agent.
    const legacy: Server = createServer((request, response) => {
      if (request.method === 'GET') {
        if (request.url !== '/.well-known/agent.json') return void response.writeHead(404).end();
        return void fetch(new URL('.well-known/agent-card.json', remote.url)).then(async (card) => {
          response
            .writeHead(200, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ ...(await card.json()), url: `http://127.0.0.1:${(legacy.address() as AddressInfo).port}/` }));
        });
      }
      const body: Buffer[] = [];
      request.on('data', (chunk: Buffer) => body.push(chunk));
      request.on('end', () => {
        void fetch(remote.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: Buffer.concat(body) }).then(
          async (answer) => {
            response.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
            const reader = answer.body!.getReader();
            for (let next = await reader.read(); !next.done; next = await reader.read()) response.write(next.value);
            response.end();
          },
        );
      });
    });
    await new Promise<void>((resolve) => legacy.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => (legacy.closeAllConnections(), legacy.close(() => resolve()))));
    const harness = await team(`http://127.0.0.1:${(legacy.address() as AddressInfo).port}/`);
    const run = await harness.team.delegate({ prompt: 'Hi', role: 'cluster-helper' });
    expect(run.task).toMatchObject({ status: 'completed', output: 'Found by the older card path.' });
  });

  it('does not contact the remote when its token variable is unset, nor where the host forbids it', async () => {
    const remote = await agent(async (turn) => status(turn, 'completed', 'hi'));
    const harness = await team(remote.url, {});
    const unset = await harness.team.delegate({ prompt: 'Hi', role: 'cluster-helper' });
    expect(unset.task.error).toBe(
      `Role 'cluster-helper' needs the environment variable KAGENT_TOKEN (its 'a2a_auth_env') to hold the token for ${remote.url}, and it is not set.`,
    );

    const restricted = await createTeamHarness({ a2a: (clock) => ({ allowed: () => false, environment: { KAGENT_TOKEN: token }, clock }) });
    closers.push(() => restricted.taskManager.close());
    restricted.roleFiles.files.set('.agent-team/agents/cluster-helper.md', remoteRole(remote.url));
    await restricted.roles.load();
    const refused = await restricted.team.delegate({ prompt: 'Hi', role: 'cluster-helper' });
    expect(refused.task.error).toBe(
      `Role 'cluster-helper' runs on the remote agent at ${remote.url}, which was not contacted: this folder is not trusted (VS Code: Manage Workspace Trust; the CLI: agent-team trust, or --trust).`,
    );
    expect(remote.prompts).toEqual([]);
  });
});

/** An address on 127.0.0.1 where nothing listens: a port just freed. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}
