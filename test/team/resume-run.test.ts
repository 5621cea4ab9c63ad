/**
 * Resume through the engine's front door (`AgentTeam.resume`): a run interrupted while a subagent worked
 * goes on in place from each task's last recorded turn; the coordinator's pending `Agent` call is answered
 * by the resumed subagent (no second subagent starts); a recorded result is handed back, never re-run.
 */
import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../../src/engine/model/types.js';
import type { ResumeSource } from '../../src/engine/team/agent-team.js';
import { notRunText, resumedConversation, resumedNotice } from '../../src/engine/team/resumed-conversation.js';
import type { RecordedResult } from '../../src/engine/team/resumed-conversation.js';
import type { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { HeldStep, ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { createTeamHarness, lastMessageText } from '../delegation/team-harness.js';

const { toolCall } = ScriptedModel;

/** What the run log keeps, from the manager's events: each task's last conversation, the results after it. */
function recordedSource(taskManager: TaskManager): ResumeSource {
  const conversations = new Map<string, ModelMessage[]>();
  const results = new Map<string, Map<string, RecordedResult>>();
  taskManager.onEvent((event) => {
    if (event.type === 'task-conversation') {
      conversations.set(event.taskId, structuredClone([...event.messages]));
      results.set(event.taskId, new Map());
    } else if (event.type === 'task-transcript' && event.entry.type === 'tool-result') {
      results.get(event.taskId)?.set(event.entry.toolCallId, { output: event.entry.output, isError: event.entry.isError });
    }
  });
  return { conversation: (taskId) => conversations.get(taskId), recordedResults: (taskId) => results.get(taskId) ?? new Map() };
}

describe('AgentTeam.resume', () => {
  it('finishes a run interrupted while its subagent worked, in place, the subagent answering the pending Agent call', async () => {
    const harness = await createTeamHarness();
    const source = recordedSource(harness.taskManager);
    const held = new HeldStep([], []);
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Find the notes', prompt: 'Where are the notes?' }, 'call-agent')],
        'The notes are in docs/.',
      );
    harness.model('researcher').enqueue([toolCall('Read', { file_path: 'notes.md' }, 'call-read')], held, 'They are in docs/.');
    const run = harness.team.delegate({ prompt: 'Find the notes' });
    await held.reached;
    await harness.taskManager.stopAll({ kind: 'shutdown' });
    await run;
    expect(harness.taskManager.list().map((task) => [task.id, task.status])).toEqual([
      ['t1', 'interrupted'],
      ['t2', 'interrupted'],
    ]);

    const resumed = await harness.team.resume({ runId: 't1', source });
    expect(resumed.map((task) => task.id)).toEqual(['t1', 't2']);
    const root = await harness.taskManager.wait('t1');
    expect(root).toMatchObject({ status: 'completed', output: 'The notes are in docs/.' });
    // No second subagent: the same t2 went on and its answer went to the coordinator's pending call.
    expect(harness.taskManager.list().map((task) => [task.id, task.status])).toEqual([
      ['t1', 'completed'],
      ['t2', 'completed'],
    ]);
    const researcherResumed = harness.model('researcher').calls.at(-1)!.request;
    // Its conversation as recorded: the prompt, its Read call and that call's recorded result, then the note.
    expect(researcherResumed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastMessageText(researcherResumed)).toContain(resumedNotice);
    const coordinatorResumed = harness.model('coordinator').calls.at(-1)!.request;
    expect(lastMessageText(coordinatorResumed)).toContain('Task t2 (researcher: "Find the notes") completed.');
    expect(lastMessageText(coordinatorResumed)).toContain('They are in docs/.');
    expect(harness.taskManager.transcript('t2').some((entry) => entry.type === 'tool-call' && entry.toolCallId === 'call-read')).toBe(true);
  });

  it('refuses a run with nothing interrupted, and names why', async () => {
    const harness = await createTeamHarness();
    const source = recordedSource(harness.taskManager);
    harness.model('coordinator').enqueue('Done.');
    await harness.team.delegate({ prompt: 'Say done' });
    await expect(harness.team.resume({ runId: 't1', source })).rejects.toThrow('Run t1 has nothing interrupted to resume');
    await expect(harness.team.resume({ runId: 't9', source })).rejects.toThrow('There is no run t9');
  });
});

describe('resumedConversation', () => {
  const conversation: ModelMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'Fix it' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Two things.' },
        { type: 'tool-call', toolCallId: 'a', toolName: 'Edit', input: { path: 'x' } },
        { type: 'tool-call', toolCallId: 'b', toolName: 'Bash', input: { command: 'npm test' } },
      ],
    },
  ];

  it('answers recorded calls with their results and cut ones as not run, then says the run was resumed', () => {
    const messages = resumedConversation(conversation, new Map([['a', { output: 'Edited x.', isError: false }]]));
    expect(messages.slice(0, 2)).toEqual(conversation);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'Edit', output: 'Edited x.', isError: false },
        { type: 'tool-result', toolCallId: 'b', toolName: 'Bash', output: notRunText, isError: true },
        { type: 'text', text: resumedNotice },
      ],
    });
  });

  it('adds the note to a conversation that already ends with the user', () => {
    const answered: ModelMessage[] = [
      ...conversation,
      {
        role: 'user',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'Edit', output: 'ok' },
          { type: 'tool-result', toolCallId: 'b', toolName: 'Bash', output: 'ok' },
        ],
      },
    ];
    const messages = resumedConversation(answered, new Map());
    expect(messages).toHaveLength(3);
    expect(messages[2].content.at(-1)).toEqual({ type: 'text', text: resumedNotice });
  });
});
