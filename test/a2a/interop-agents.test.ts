/**
 * The interop test agents are what they claim to be, checked against the SDKs' own clients (no code of
 * ours in the way): the 1.x agent speaks 1.0 only, the compatibility-layer agent 0.3 only, the old-SDK
 * agent 0.3, and the ADK agent is ADK's `toA2a` — 0.3, a `localhost` card, no cancel.
 */
import { describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { startAdkAgent } from '../support/interop/adk-agent.js';
import { startCompatV03Agent } from '../support/interop/compat-v03-agent.js';
import { startDualVersionAgent } from '../support/interop/dual-version-agent.js';
import { interopScript } from '../support/interop/interop-agent.js';
import { startLegacySdkV03Agent } from '../support/interop/legacy-sdk-v03-agent.js';
import { v03Client, v03UserMessage, v1Client, v1TextOf, v1UserMessage } from '../support/interop/sdk-clients.js';
import { type ProtocolBinding, startV1SdkAgent } from '../support/interop/v1-sdk-agent.js';

const bindings: ProtocolBinding[] = ['JSONRPC', 'HTTP+JSON'];

describe('the 1.x SDK agent', () => {
  it.each(bindings)('answers a 1.x client over its preferred binding (%s), protocol 1.0, and cancels', async (preferred) => {
    const agent = await startV1SdkAgent({ preferred });
    const client = await v1Client(agent.url);
    expect(client.protocolVersion).toBe('1.0');
    expect((await client.getAgentCard()).supportedInterfaces[0]!.protocolBinding).toBe(preferred);
    const texts: string[] = [];
    let final: TaskState | undefined;
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: v1UserMessage('What is the answer?'),
      configuration: undefined,
      metadata: undefined,
    })) {
      texts.push(v1TextOf(event));
      if (event.payload?.$case === 'artifactUpdate' && texts.length <= 3) agent.journal.release();
      if (event.payload?.$case === 'statusUpdate') final = event.payload.value.status?.state;
    }
    expect(texts.filter(Boolean)).toEqual([interopScript.progress('What is the answer?'), ...interopScript.chunks]);
    expect(final).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.journal.prompts).toEqual(['What is the answer?']);
  });

  it('offers nothing a 0.3 client can use', async () => {
    const agent = await startV1SdkAgent({ preferred: 'JSONRPC' });
    await expect(v03Client(agent.url)).rejects.toThrow(/No compatible transport/);
  });
});

describe('the 0.3 agents', () => {
  it.each(bindings)(
    'the compatibility-layer agent answers the old client over %s and cancels; a 1.x client needs its compat layer',
    async (preferred) => {
      const agent = await startCompatV03Agent({ preferred });
      const strict = await v1Client(agent.url);
      await expect(
        strict.sendMessage({ tenant: '', message: v1UserMessage('In 1.0?'), configuration: undefined, metadata: undefined }),
      ).rejects.toThrow(/version/i);
      expect((await v1Client(agent.url, { legacyCompat: true })).protocolVersion).toBe('0.3');
      const client = await v03Client(agent.url);
      const stream = client.sendMessageStream({ message: v03UserMessage('Stop me') });
      const first = (await stream.next()).value as { kind: string; id: string };
      expect(first.kind).toBe('task');
      await agent.journal.started();
      expect((await client.cancelTask({ id: first.id })).status.state).toBe('canceled');
      expect(agent.journal.cancelledTasks).toEqual([first.id]);
      let last: unknown;
      for await (const event of stream) last = event;
      expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
    },
  );

  it.each(bindings)('the old-SDK agent answers the old client over %s, and the 1.x client with its compat layer', async (preferred) => {
    const agent = await startLegacySdkV03Agent({ preferred });
    agent.journal.release();
    const old = await v03Client(agent.url);
    expect(JSON.stringify(await old.sendMessage({ message: v03UserMessage('Old client') }))).toContain('is 42.');
    const modern = await v1Client(agent.url, { legacyCompat: true });
    expect(modern.protocolVersion).toBe('0.3');
    const texts: string[] = [];
    for await (const event of modern.sendMessageStream({
      tenant: '',
      message: v1UserMessage('New client'),
      configuration: undefined,
      metadata: undefined,
    }))
      texts.push(v1TextOf(event));
    expect(texts.filter(Boolean)).toEqual([interopScript.progress('New client'), ...interopScript.chunks]);
    expect(agent.journal.prompts).toEqual(['Old client', 'New client']);
  });
});

describe('the dual-version agent', () => {
  it('answers the old client at 0.3 and the 1.x client at 1.0 on the same addresses', async () => {
    const agent = await startDualVersionAgent({ preferred: 'JSONRPC' });
    agent.journal.release();
    const card = (await (await fetch(`${agent.url}.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as {
      supportedInterfaces: Array<{ protocolVersion: string }>;
    };
    expect(card.supportedInterfaces.map((offered) => offered.protocolVersion)).toEqual(['0.3', '0.3', '1.0', '1.0']);
    const old = await v03Client(agent.url);
    expect(JSON.stringify(await old.sendMessage({ message: v03UserMessage('Old client') }))).toContain('is 42.');
    const modern = await v1Client(agent.url, { legacyCompat: true });
    expect(
      JSON.stringify(
        await modern.sendMessage({ tenant: '', message: v1UserMessage('New client'), configuration: undefined, metadata: undefined }),
      ),
    ).toContain('is 42.');
    expect(agent.journal.prompts).toEqual(['Old client', 'New client']);
  });
});

describe('the ADK agent (toA2a)', () => {
  it("publishes a 0.3 card naming localhost and the card's port, not where it listens", async () => {
    const agent = await startAdkAgent({ cardPort: 8000 });
    const card = (await (await fetch(`${agent.url}.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'http://localhost:8000/jsonrpc',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [{ transport: 'JSONRPC' }, { url: 'http://localhost:8000/rest', transport: 'HTTP+JSON' }],
    });
  });

  it('streams a thought, partial words and the whole answer again; refuses to cancel', async () => {
    // A card that names the port it listens on, so that the SDK's own client can use it.
    const agent = await startAdkAgent({ cardPort: 'listening' });
    const client = await v03Client(agent.url);
    const events: Array<{
      kind: string;
      id?: string;
      taskId?: string;
      append?: boolean;
      lastChunk?: boolean;
      artifact?: { parts: Array<{ text?: string; metadata?: Record<string, unknown> }> };
      metadata?: Record<string, unknown>;
    }> = [];
    const stream = client.sendMessageStream({ message: v03UserMessage('Think about it') });
    for await (const event of stream) {
      events.push(event as (typeof events)[number]);
      if (event.kind === 'artifact-update' && events.filter((seen) => seen.kind === 'artifact-update').length === 2) {
        await expect(client.cancelTask({ id: event.taskId })).rejects.toThrow(/not supported/);
        agent.journal.release();
      }
    }
    const chunks = events.filter((event) => event.kind === 'artifact-update');
    expect(chunks.map((chunk) => [chunk.artifact!.parts[0]!.text, chunk.append, chunk.lastChunk])).toEqual([
      [interopScript.progress('Think about it'), true, false],
      [interopScript.chunks[0], true, false],
      [interopScript.chunks[1], true, false],
      [interopScript.answer, false, true],
    ]);
    expect(chunks[0]!.artifact!.parts[0]!.metadata).toEqual({ adk_thought: true });
    expect(chunks.at(-1)!.metadata).toMatchObject({ adk_usage_metadata: interopScript.usage });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect(agent.journal.cancelledTasks).toHaveLength(1);
  });
});
