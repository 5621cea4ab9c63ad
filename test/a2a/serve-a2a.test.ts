/**
 * `agent-team serve --a2a`, the real CLI bundle with the real OpenAI SDK over the mock provider, answered
 * by the official A2A SDK's 0.3 client (the SDK before 1.0, as Google ADK and other 0.3 agents use it): the agent card lists the roles as skills, `message/stream` streams the
 * run's status and text and ends with its answer, `tasks/cancel` stops a run, and another team's remote
 * role can use the served team as its agent.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClientFactory } from 'a2a-sdk-v03/client';
import type { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { hangingStream, textTurn } from '../support/mock-provider/index.js';
import { useCliWorld } from '../cli/cli-world.js';
import { useServedTeam } from './served-team.js';
import { createTeamHarness, lastMessageText } from '../delegation/team-harness.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });
const team = useServedTeam(world, { exitsCleanly: true });
const serveCapturing = () => team.serve(['--no-auth']);

type RemoteEvent = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

const userMessage = (text: string, metadata?: Record<string, unknown>): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...(metadata ? { metadata } : {}),
});

describe('agent-team serve --a2a', () => {
  it('lists the roles as skills and streams a run: status, text, the final answer and its usage', async () => {
    world.server.respondWith(() => textTurn('The parser ', 'is in parser.ts:1.'));
    const url = await serveCapturing();
    const client = await new ClientFactory().createFromUrl(url);
    const card = await client.getAgentCard();
    expect(card.capabilities.streaming).toBe(true);
    expect(card.skills.map((skill) => skill.id)).toEqual(expect.arrayContaining(['coordinator', 'researcher', 'reviewer', 'refactorer']));

    const events: RemoteEvent[] = [];
    for await (const event of client.sendMessageStream({ message: userMessage('Where is the parser?', { skill: 'researcher' }) }))
      events.push(event as RemoteEvent);

    expect(events[0]!.kind).toBe('task');
    const statuses = events.filter((event): event is TaskStatusUpdateEvent => event.kind === 'status-update');
    expect(statuses.map((event) => textOfStatus(event))).toContain('researcher started: Where is the parser?');
    const chunks = events.filter((event) => event.kind === 'artifact-update');
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    const last = chunks.at(-1)!;
    expect(last).toMatchObject({
      append: false,
      lastChunk: true,
      artifact: { artifactId: 'answer', parts: [{ kind: 'text', text: 'The parser is in parser.ts:1.' }] },
    });
    // Progress is marked as the agent's thinking, so Google ADK does not show it as answer text.
    const progress = statuses.find((event) => textOfStatus(event).startsWith('researcher started'))!;
    expect(progress.status.message?.parts[0]?.metadata).toEqual({ adk_thought: true });
    // The usage comes once, with the answer's last chunk, under our name and Google ADK's.
    expect(last.metadata?.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(last.metadata?.adk_usage_metadata).toMatchObject({
      promptTokenCount: expect.any(Number),
      candidatesTokenCount: expect.any(Number),
    });
    const final = statuses.at(-1)!;
    // The answer is the artifact: a completed run's final status says nothing more (ADK would show it twice).
    expect(final).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(final.status.message).toBeUndefined();
  });

  it('answers a role with an outputSchema with its JSON: the text, and a data part beside it', async () => {
    await mkdir(path.join(world.workspace, '.agent-team', 'agents'), { recursive: true });
    await writeFile(
      path.join(world.workspace, '.agent-team', 'agents', 'extractor.md'),
      '---\ndescription: Lists files.\ntools: [Read]\noutputSchema:\n  type: object\n  required: [files]\n---\nYou list files.\n',
    );
    world.server.respondWith(() => textTurn('Found: {"files": ["parser.ts"]}'));
    const client = await new ClientFactory().createFromUrl(await serveCapturing());
    const events: RemoteEvent[] = [];
    for await (const event of client.sendMessageStream({ message: userMessage('Which files parse?', { skill: 'extractor' }) }))
      events.push(event as RemoteEvent);
    const last = events.filter((event): event is TaskArtifactUpdateEvent => event.kind === 'artifact-update').at(-1)!;
    expect(last.artifact.parts).toEqual([
      expect.objectContaining({ kind: 'text', text: JSON.stringify({ files: ['parser.ts'] }, null, 2) }),
      expect.objectContaining({ kind: 'data', data: { files: ['parser.ts'] } }),
    ]);
  });

  it('tasks/cancel stops the run and the stream ends canceled', async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    const url = await serveCapturing();
    const client = await new ClientFactory().createFromUrl(url);
    const events: RemoteEvent[] = [];
    let cancelled: string | undefined;
    for await (const event of client.sendMessageStream({ message: userMessage('Think forever', { skill: 'researcher' }) })) {
      events.push(event as RemoteEvent);
      if (event.kind === 'artifact-update' && !cancelled) {
        // The model is streaming: the run is under way.
        cancelled = event.taskId;
        const task = await client.cancelTask({ id: event.taskId });
        expect(task.status.state).toBe('canceled');
      }
    }
    expect(cancelled).toBeDefined();
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
  });

  it("is another team's remote agent: a role with a2a_url pointing at it answers that team's coordinator", async () => {
    world.server.respondWith(() => textTurn('Served answer: parser.ts:1.'));
    const url = await serveCapturing();
    const harness = await createTeamHarness({ a2a: () => ({ allowed: () => true, environment: {} }) });
    harness.roleFiles.files.set(
      '.agent-team/agents/other-team.md',
      `---\nname: other-team\ndescription: Another Agent Team, served over A2A.\na2a_url: ${url}\n---\n`,
    );
    await harness.roles.load();
    harness
      .model('coordinator')
      .enqueue(
        [ScriptedModel.toolCall('Agent', { subagent_type: 'other-team', description: 'Find the parser', prompt: 'Where is the parser?' })],
        'Done.',
      );
    const run = await harness.team.delegate({ prompt: 'Ask the other team' });
    await harness.taskManager.close();
    expect(run.task.status).toBe('completed');
    expect(lastMessageText(harness.model('coordinator').calls[1]!.request)).toContain('Served answer: parser.ts:1.');
    const [remote] = harness.taskManager.children(run.task.id);
    expect(remote).toMatchObject({ model: 'a2a/agent-team', output: 'Served answer: parser.ts:1.' });
  });
});

function textOfStatus(event: TaskStatusUpdateEvent): string {
  return (event.status.message?.parts ?? []).map((part) => (part.kind === 'text' ? part.text : '')).join('');
}
