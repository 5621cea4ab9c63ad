/**
 * `agent-team serve --a2a --approve-plan`, the real CLI bundle over the mock provider, answered by the
 * official A2A SDK's 0.3 client: a run's plan is the task's `input-required` state, no subagent starts
 * before the client answers on that task; changes reach the coordinator, which asks again; approve lets
 * the run finish; stop ends it canceled with nothing started.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ClientFactory } from 'a2a-sdk-v03/client';
import type { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import { type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns } from '../cli/cli-harness.js';
import { useCliWorld } from '../cli/cli-world.js';
import { useServedTeam } from './served-team.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });
const team = useServedTeam(world);
const serve = () => team.serve(['--approve-plan', '--no-auth']);

type RemoteEvent = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

const plan = [{ content: 'Find the parser', status: 'pending', activeForm: 'Finding the parser' }];
const revised = [...plan, { content: 'Read its tests', status: 'pending', activeForm: 'Reading its tests' }];

function coordinator(request: RecordedRequest) {
  if (agentOf(request) === 'researcher') return textTurn('parser.ts:1');
  const told = request.lastMessageText;
  if (priorTurns(request) === 0) return toolCallTurn([{ name: 'TodoWrite', input: { todos: plan } }]);
  if (told.startsWith('Todo list updated'))
    return toolCallTurn([
      { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find the parser', prompt: 'Where is the parser?' } },
    ]);
  if (told.includes('asks for changes')) return toolCallTurn([{ name: 'TodoWrite', input: { todos: revised } }]);
  return textTurn('The parser is in parser.ts:1.');
}

const message = (text: string, task?: { taskId: string; contextId: string }): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...(task ?? {}),
});

async function exchange(
  client: Awaited<ReturnType<ClientFactory['createFromUrl']>>,
  sent: Message,
): Promise<{ last: TaskStatusUpdateEvent; taskId: string; contextId: string }> {
  const events: RemoteEvent[] = [];
  for await (const event of client.sendMessageStream({ message: sent })) events.push(event as RemoteEvent);
  const last = events.filter((event): event is TaskStatusUpdateEvent => event.kind === 'status-update').at(-1)!;
  return { last, taskId: last.taskId, contextId: last.contextId };
}

const textOf = (event: TaskStatusUpdateEvent) =>
  (event.status.message?.parts ?? []).map((part) => (part.kind === 'text' ? part.text : '')).join('');
const researcherAsked = () => world.server.requests.some((request) => agentOf(request) === 'researcher');

describe('agent-team serve --a2a --approve-plan', () => {
  it('puts the plan to the client as input-required; changes go to the coordinator; approve lets the run finish', async () => {
    world.server.respondWith(coordinator);
    const client = await new ClientFactory().createFromUrl(await serve());
    const first = await exchange(client, message('Where is the parser?'));
    expect(first.last.status.state).toBe('input-required');
    expect(textOf(first.last)).toContain('Approve this plan before any subagent starts?\n\n[ ] Find the parser');
    expect(researcherAsked()).toBe(false);

    const second = await exchange(client, message('Read its tests as well.', first));
    expect(second.last.status.state).toBe('input-required');
    expect(textOf(second.last)).toContain('[ ] Read its tests');
    expect(researcherAsked()).toBe(false);
    expect(world.server.requests.some((request) => request.lastMessageText.includes('asks for changes:\nRead its tests as well.'))).toBe(
      true,
    );

    const third = await exchange(client, message('approve', first));
    expect(third.last).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(researcherAsked()).toBe(true);
    const task = await client.getTask({ id: first.taskId });
    expect(task.artifacts?.[0]?.parts[0]).toMatchObject({ kind: 'text', text: expect.stringContaining('The parser is in parser.ts:1.') });
  });

  it('"stop" ends the task canceled with no subagent started', async () => {
    world.server.respondWith(coordinator);
    const client = await new ClientFactory().createFromUrl(await serve());
    const first = await exchange(client, message('Where is the parser?'));
    expect(first.last.status.state).toBe('input-required');
    const stopped = await exchange(client, message('stop', first));
    expect(stopped.last.status.state).toBe('canceled');
    expect(researcherAsked()).toBe(false);
  });
});
