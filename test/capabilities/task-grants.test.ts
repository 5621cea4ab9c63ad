/** How a task's grants are gathered from the capability list, and released. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endWhen, reviewAnswer, userReplies } from '../../src/engine/agent/stop-condition-kinds.js';
import { decideStep, type StopStep } from '../../src/engine/agent/stop-conditions.js';
import { defineTool } from '../../src/engine/agent/tool.js';
import type { Capability, CapabilityTask } from '../../src/engine/capabilities/capability.js';
import { gatherGrants } from '../../src/engine/capabilities/task-grants.js';
import { commandsCapability } from '../../src/engine/commands/commands-capability.js';
import type { CommandHost } from '../../src/engine/commands/command-host.js';
import { conversationCapability } from '../../src/engine/conversation/conversation-capability.js';

function answerStep(answer: string): StopStep {
  return { turn: 1, answer, toolCalls: [], signal: new AbortController().signal };
}

function tool(name: string) {
  return defineTool({ name, description: name, inputSchema: z.object({}), readOnly: true, execute: async () => name });
}

function task(agent: Partial<CapabilityTask['agent']> = {}): CapabilityTask {
  return {
    taskId: 't2',
    rootId: 't1',
    agent: { role: 'researcher', tools: ['Read'], mayDelegate: false, reach: [], depth: 1, ...agent },
    context: { signal: new AbortController().signal } as CapabilityTask['context'],
    files: { readOnly: [], edit: [], proposals: async () => [] },
    redact: (text) => text,
  };
}

describe('gatherGrants', () => {
  it('puts the grants together in the order of the list', async () => {
    const released: string[] = [];
    const first: Capability = {
      name: 'first',
      grant: () => ({
        tools: [tool('A')],
        instructions: 'Use A.',
        notices: ['a started'],
        release: async () => void released.push('first'),
      }),
    };
    const none: Capability = { name: 'none', grant: () => undefined };
    const second: Capability = {
      name: 'second',
      grant: async () => ({ tools: [tool('B')], instructions: 'Use B.', release: async () => void released.push('second') }),
    };
    const grants = await gatherGrants([first, none, second], task());
    expect(grants.tools.map((granted) => granted.name)).toEqual(['A', 'B']);
    expect(grants.instructions).toEqual(['Use A.', 'Use B.']);
    expect(grants.notices).toEqual(['a started']);
    await grants.release();
    expect(released.sort()).toEqual(['first', 'second']);
  });

  it('releases what was granted before a capability that throws, and throws its error', async () => {
    const released: string[] = [];
    const started: Capability = { name: 'started', grant: () => ({ release: async () => void released.push('started') }) };
    const broken: Capability = { name: 'broken', grant: () => Promise.reject(new Error('the server is gone')) };
    await expect(gatherGrants([started, broken], task())).rejects.toThrow('the server is gone');
    expect(released).toEqual(['started']);
  });

  it('lets each reviewer see only the calls the ones before it let through, and adds up their refusals', async () => {
    const seen: string[][] = [];
    const refuse = (id: string): Capability => ({
      name: id,
      grant: () => ({
        reviewToolCalls: async (calls) => {
          seen.push(calls.map((call) => call.toolCallId));
          return new Map(calls.filter((call) => call.toolCallId === id).map((call) => [call.toolCallId, `no ${id}`]));
        },
      }),
    });
    const grants = await gatherGrants([refuse('c1'), refuse('c2')], task());
    const calls = ['c1', 'c2', 'c3'].map((toolCallId) => ({ toolCallId, toolName: 'Agent', input: {} }));
    const refused = await grants.reviewToolCalls?.(calls, new AbortController().signal);
    expect([...(refused ?? [])]).toEqual([
      ['c1', 'no c1'],
      ['c2', 'no c2'],
    ]);
    expect(seen).toEqual([
      ['c1', 'c2', 'c3'],
      ['c2', 'c3'],
    ]);
  });
});

describe('the grant points around a turn', () => {
  it("reviews a chat's replies like the prompt: a refused one is asked for again, context joins an accepted one", async () => {
    const replies = ['my password is hunter2', 'ship it'];
    const asked: string[] = [];
    const chat: Capability = {
      name: 'chat',
      grant: () => ({ stopWhen: [userReplies('chat', async (answer) => (asked.push(answer), replies.shift()))] }),
    };
    const review: Capability = {
      name: 'review',
      grant: () => ({
        reviewUserPrompt: async (prompt) =>
          prompt.includes('password') ? { refused: 'no passwords', context: [] } : { context: ['Sprint ends Friday.'] },
      }),
    };
    const grants = await gatherGrants([chat, review], task());
    const outcome = await decideStep(grants.stopWhen, answerStep('Shall I ship?'));
    expect(outcome).toEqual({ kind: 'go-on', by: 'chat', goOn: { reply: 'ship it\n\n[Context added by a hook]\nSprint ends Friday.' } });
    expect(asked).toEqual(['Shall I ship?', 'Shall I ship?']);
  });

  it("joins every grant's notices after the calls, takes the first that sends the agent back, and the first end asked for", async () => {
    const after = (text: string): Capability => ({
      name: text,
      grant: () => ({
        afterToolCalls: async () => [text],
        stopWhen: [
          reviewAnswer(`review ${text}`, async () => (text === 'b' ? 'go on: b' : undefined)),
          endWhen(`end ${text}`, () => (text === 'b' ? 'end: b' : undefined)),
        ],
      }),
    });
    const grants = await gatherGrants([after('a'), after('b')], task());
    const signal = new AbortController().signal;
    expect(await grants.afterToolCalls?.([], signal)).toEqual(['a', 'b']);
    expect(await decideStep(grants.stopWhen, answerStep('Done.'))).toEqual({ kind: 'go-on', by: 'review b', goOn: { resume: 'go on: b' } });
    expect(await decideStep(grants.stopWhen, { ...answerStep(''), toolCalls: [{}] })).toEqual({
      kind: 'end',
      by: 'end b',
      stop: { status: 'completed', notice: 'end: b' },
    });
  });
});

describe('the capabilities grant only to the tasks that should have them', () => {
  const host = { dispose: async () => {}, copies: { warmUp: async () => {} } } as unknown as CommandHost & { dispose(): Promise<void> };

  it('commands: Bash for a role that lists it, nothing for one that does not', async () => {
    expect(await commandsCapability(host).grant(task({ tools: ['Read'] }))).toBeUndefined();
    const granted = await commandsCapability(host).grant(task({ tools: ['Read', 'Bash'] }));
    expect(granted?.tools?.map((entry) => entry.name)).toEqual(['Bash']);
  });

  it('conversation: AskUser and CompleteTask with their instructions for task and chat roles, nothing for single-turn ones', async () => {
    expect(await conversationCapability(undefined).grant(task())).toBeUndefined();
    const granted = await conversationCapability(undefined).grant(task({ mode: 'task' }));
    expect(granted?.tools?.map((entry) => entry.name)).toEqual(['AskUser', 'CompleteTask']);
    expect(granted?.instructions).toContain('call CompleteTask');
    expect(granted?.stopWhen?.map((condition) => condition.name)).toEqual(['complete-task']);
  });
});
