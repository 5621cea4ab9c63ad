/**
 * `agent-team serve --a2a` (the real CLI bundle, its model on the mock provider) answering clients nobody
 * here wrote: the 1.x SDK's client (protocol 1.0), the old SDK's client (protocol 0.3) and Google ADK's
 * `RemoteA2AAgent` run by an ADK `InMemoryRunner` (no model: the remote agent is the root). Message,
 * stream, get and cancel for each SDK client; stream for ADK, which has no get or cancel (it never calls
 * them, see /work/scratch/adk-notes.md).
 */
import { describe, expect, it } from 'vitest';
import { type Message, TaskState } from '@a2a-js/sdk';
import { type Event, InMemoryRunner, LogLevel, RemoteA2AAgent, setLogLevel } from '@google/adk';
import { hangingStream, textTurn } from '../support/mock-provider/index.js';
import { type V1Client, v03Client, v03UserMessage, v1Client, v1TextOf, v1UserMessage } from '../support/interop/sdk-clients.js';
import { useCliWorld } from '../cli/cli-world.js';
import { useServedTeam } from './served-team.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });
const answer = 'The parser is in parser.ts:1.';
const researcher = { skill: 'researcher' };
const team = useServedTeam(world);
const serve = () => team.serve(['--no-auth']);

const send = (message: Message) => ({ tenant: '', message, configuration: undefined, metadata: undefined });

/** The text of a task's artifacts (its answer). */
function artifactText(task: { artifacts?: Array<{ parts: Array<{ content?: { $case: string; value?: unknown } }> }> }): string {
  return (task.artifacts ?? [])
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === 'text' ? String(part.content.value) : ''))
    .join('');
}

describe('serve --a2a and the 1.x SDK client (protocol 1.0)', () => {
  let client: V1Client;

  async function connect() {
    client = await v1Client(await serve());
    expect(client.protocolVersion).toBe('1.0');
  }

  it('message, then get: the task completed with the answer as its artifact', async () => {
    world.server.respondWith(() => textTurn('The parser ', 'is in parser.ts:1.'));
    await connect();
    const result = await client.sendMessage(send(v1UserMessage('Where is the parser?', researcher)));
    expect(JSON.stringify(result)).toContain(answer);
    const taskId = (result as { id?: string }).id;
    expect(taskId).toBeTruthy();
    const task = await client.getTask({ tenant: '', id: taskId! });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe(answer);
  });

  it('stream: the task, its status, the answer in chunks, completed', async () => {
    world.server.respondWith(() => textTurn('The parser ', 'is in parser.ts:1.'));
    await connect();
    const cases: string[] = [];
    let artifact = '';
    let final: TaskState | undefined;
    for await (const event of client.sendMessageStream(send(v1UserMessage('Where is the parser?', researcher)))) {
      const payload = event.payload;
      cases.push(payload?.$case ?? 'none');
      if (payload?.$case === 'artifactUpdate') artifact = payload.value.append ? artifact + v1TextOf(event) : v1TextOf(event);
      if (payload?.$case === 'statusUpdate') final = payload.value.status?.state;
    }
    expect(cases[0]).toBe('task');
    expect(cases).toContain('statusUpdate');
    expect(cases.filter((name) => name === 'artifactUpdate').length).toBeGreaterThanOrEqual(2);
    expect(artifact).toBe(answer);
    expect(final).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('cancel: the run stops and the stream ends canceled', async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    await connect();
    let final: TaskState | undefined;
    let cancelled: TaskState | undefined;
    for await (const event of client.sendMessageStream(send(v1UserMessage('Think forever', researcher)))) {
      const payload = event.payload;
      if (payload?.$case === 'artifactUpdate' && cancelled === undefined)
        cancelled = (await client.cancelTask({ tenant: '', id: payload.value.taskId, metadata: undefined })).status?.state;
      if (payload?.$case === 'statusUpdate') final = payload.value.status?.state;
    }
    expect(cancelled).toBe(TaskState.TASK_STATE_CANCELED);
    expect(final).toBe(TaskState.TASK_STATE_CANCELED);
    await world.server.waitForClientClose(0);
  });
});

describe('serve --a2a and the old SDK client (protocol 0.3)', () => {
  it('message, then get: the task completed with the answer as its artifact', async () => {
    world.server.respondWith(() => textTurn('The parser ', 'is in parser.ts:1.'));
    const client = await v03Client(await serve());
    const result = await client.sendMessage({ message: v03UserMessage('Where is the parser?', researcher) });
    expect(result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const task = await client.getTask({ id: (result as { id: string }).id });
    expect(task.status.state).toBe('completed');
    expect(
      task.artifacts
        ?.flatMap((artifact) => artifact.parts)
        .map((part) => (part.kind === 'text' ? part.text : ''))
        .join(''),
    ).toBe(answer);
  });

  it('stream: the task, its status, the answer in chunks, a final completed', async () => {
    world.server.respondWith(() => textTurn('The parser ', 'is in parser.ts:1.'));
    const client = await v03Client(await serve());
    const kinds: string[] = [];
    let artifact = '';
    let last: unknown;
    for await (const event of client.sendMessageStream({ message: v03UserMessage('Where is the parser?', researcher) })) {
      kinds.push(event.kind);
      if (event.kind === 'artifact-update') {
        const text = event.artifact.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
        artifact = event.append ? artifact + text : text;
      }
      last = event;
    }
    expect(kinds[0]).toBe('task');
    expect(kinds).toContain('status-update');
    expect(artifact).toBe(answer);
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('cancel: the run stops and the stream ends canceled', async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    const client = await v03Client(await serve());
    let cancelled: string | undefined;
    let last: unknown;
    for await (const event of client.sendMessageStream({ message: v03UserMessage('Think forever', researcher) })) {
      if (event.kind === 'artifact-update' && cancelled === undefined)
        cancelled = (await client.cancelTask({ id: event.taskId })).status.state;
      last = event;
    }
    expect(cancelled).toBe('canceled');
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
    await world.server.waitForClientClose(0);
  });
});

describe("serve --a2a and Google ADK's RemoteA2AAgent", () => {
  /** The remote agent as an ADK app's root agent, run once with `prompt`; its events and the session's. */
  async function runAdk(url: string, prompt: string) {
    setLogLevel(LogLevel.ERROR);
    const remote = new RemoteA2AAgent({ name: 'agent_team', description: 'Agent Team over A2A', agentCard: url });
    const runner = new InMemoryRunner({ agent: remote, appName: 'interop' });
    const session = await runner.sessionService.createSession({ appName: 'interop', userId: 'tester' });
    const events: Event[] = [];
    for await (const event of runner.runAsync({
      userId: 'tester',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: prompt }] },
    }))
      events.push(event);
    const stored = await runner.sessionService.getSession({ appName: 'interop', userId: 'tester', sessionId: session.id });
    return { events, stored: stored?.events ?? [] };
  }

  const textOf = (event: Event, thought: boolean) =>
    (event.content?.parts ?? [])
      .filter((part) => !!part.thought === thought)
      .map((part) => part.text ?? '')
      .join('');

  it('streams the answer as partial text, progress as thoughts, and ends with the answer once', async () => {
    world.server.respondWith(() => textTurn('The parser ', 'is in parser.ts:1.'));
    const { events, stored } = await runAdk(await serve(), 'Where is the parser?');

    expect(events.map((event) => event.errorMessage).filter(Boolean)).toEqual([]);
    const partial = events.filter((event) => event.partial);
    expect(partial.map((event) => textOf(event, false)).join('')).toBe(answer);
    // serve's status lines carry ADK's thought mark: shown as the agent's thinking, not as its answer.
    expect(partial.map((event) => textOf(event, true)).filter(Boolean)).toContainEqual(expect.stringContaining('Where is the parser?'));
    const whole = events
      .filter((event) => !event.partial)
      .map((event) => textOf(event, false))
      .filter(Boolean);
    expect(whole).toEqual([answer]);
    // What the ADK app keeps of the exchange: the user's words and the answer, once.
    expect(stored.map((event) => textOf(event, false)).filter(Boolean)).toEqual(['Where is the parser?', answer]);
  });

  it("reads serve's token usage where ADK looks for it (adk_usage_metadata)", async () => {
    world.server.respondWith(() => textTurn(answer));
    const { events } = await runAdk(await serve(), 'Where is the parser?');
    const usage = events.filter((event) => !event.partial && textOf(event, false) === answer).map((event) => event.usageMetadata);
    expect(usage).toEqual([expect.objectContaining({ promptTokenCount: expect.any(Number), candidatesTokenCount: expect.any(Number) })]);
    expect(usage[0]!.promptTokenCount).toBeGreaterThan(0);
  });
});
