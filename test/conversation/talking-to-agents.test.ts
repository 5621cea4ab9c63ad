import { afterEach, describe, expect, it } from 'vitest';
import { MemoryConversationStore } from '../../src/engine/conversation/conversation-store.js';
import type { UserChannel, UserQuestion } from '../../src/engine/conversation/user-channel.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { createDeferred } from '../../src/engine/util/deferred.js';
import { type TeamHarness, createTeamHarness, lastMessageText, toolNamesOf } from '../delegation/team-harness.js';

const { text, toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

/** A user who answers from a list, recording each question and the asking task's status at that moment. */
class ScriptedUser implements UserChannel {
  readonly questions: Array<UserQuestion & { status?: string }> = [];
  constructor(private readonly answers: Array<string | undefined>) {}
  async ask(question: UserQuestion): Promise<string | undefined> {
    this.questions.push({ ...question, status: harness.taskManager.get(question.taskId)?.status });
    return this.answers.shift();
  }
}

async function addRole(name: string, mode: 'task' | 'chat', tools = '[Read]'): Promise<void> {
  harness.roleFiles.files.set(
    `.agent-team/agents/${name}.md`,
    `---\nname: ${name}\ndescription: Talks to the user.\nmode: ${mode}\ntools: ${tools}\n---\nYou are ${name}.`,
  );
  await harness.roles.load();
}

describe('task mode', () => {
  it('AskUser waits for the answer (the task shows waiting), and CompleteTask ends the task with its result for the parent', async () => {
    const user = new ScriptedUser(['Use UTC everywhere.']);
    harness = await createTeamHarness({ userChannel: user });
    await addRole('clarifier', 'task');
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'clarifier', description: 'Clarify dates', prompt: 'Which timezone?' })], 'Done.');
    harness
      .model('clarifier')
      .enqueue(
        [toolCall('AskUser', { question: 'Which timezone should dates use?' })],
        [toolCall('CompleteTask', { result: 'Dates use UTC.' })],
      );
    const { task } = await harness.team.delegate({ prompt: 'Fix the dates' });
    expect(task.status).toBe('completed');
    expect(user.questions).toEqual([
      { taskId: 't2', role: 'clarifier', kind: 'question', text: 'Which timezone should dates use?', status: 'waiting' },
    ]);
    expect(lastMessageText(harness.model('clarifier').calls[1].request)).toBe('The user answered: Use UTC everywhere.');
    // CompleteTask ended the run: no model call after it, and its result is the task's output.
    expect(harness.model('clarifier').calls).toHaveLength(2);
    expect(harness.taskManager.get('t2')).toMatchObject({ status: 'completed', output: 'Dates use UTC.' });
    expect(lastMessageText(harness.model('coordinator').calls[1].request)).toContain('Dates use UTC.');
    expect(toolNamesOf(harness.model('clarifier').calls[0].request)).toEqual(['AskUser', 'CompleteTask']);
    expect(harness.model('clarifier').calls[0].request.system).toContain('# Working with the user');
  });

  it('with nobody to answer, AskUser says so and the agent decides', async () => {
    harness = await createTeamHarness();
    await addRole('clarifier', 'task');
    harness
      .model('clarifier')
      .enqueue([toolCall('AskUser', { question: 'Which timezone?' })], [toolCall('CompleteTask', { result: 'I assumed UTC.' })]);
    const { task } = await harness.team.delegate({ prompt: 'Fix the dates', role: 'clarifier' });
    expect(task).toMatchObject({ status: 'completed', output: 'I assumed UTC.' });
    expect(lastMessageText(harness.model('clarifier').calls[1].request)).toBe(
      'No user is available to answer. Decide for yourself, say in your answer what you assumed, and go on.',
    );
  });

  it('a task or chat role asked for in the background gets an error result naming its mode', async () => {
    harness = await createTeamHarness();
    await addRole('clarifier', 'task');
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'clarifier', description: 'Clarify', prompt: 'Ask', run_in_background: true })], 'OK.');
    await harness.team.delegate({ prompt: 'Go' });
    expect(lastMessageText(harness.model('coordinator').calls[1].request)).toContain(
      '"clarifier" is a task-mode role: it may talk to the user while it works, so it runs in the foreground only.',
    );
    expect(harness.taskManager.list()).toHaveLength(1);
    // Single-turn roles do not get the user tools.
    expect(toolNamesOf(harness.model('coordinator').calls[0].request)).not.toContain('AskUser');
  });
});

describe('chat mode', () => {
  it('converses until the user ends the chat, each reply a new turn with the context kept', async () => {
    const user = new ScriptedUser(['Make it shorter.', undefined]);
    harness = await createTeamHarness({ userChannel: user });
    await addRole('writer', 'chat');
    harness.model('writer').enqueue('Draft: a long paragraph.', 'Draft: short.');
    const { task } = await harness.team.delegate({ prompt: 'Write the intro', role: 'writer' });
    expect(task).toMatchObject({ status: 'completed', output: 'Draft: short.' });
    expect(user.questions.map((question) => [question.kind, question.text, question.status])).toEqual([
      ['chat', 'Draft: a long paragraph.', 'waiting'],
      ['chat', 'Draft: short.', 'waiting'],
    ]);
    const second = harness.model('writer').calls[1].request;
    expect(lastMessageText(second)).toBe('Make it shorter.');
    expect(second.messages.filter((message) => message.role === 'assistant')).toHaveLength(1);
    expect(
      harness.taskManager.transcript(task.id).some((entry) => entry.type === 'notice' && entry.text === 'The user: Make it shorter.'),
    ).toBe(true);
  });
});

describe('messages to running tasks', () => {
  it('SendMessage reaches a running subagent at its next turn and not before', async () => {
    harness = await createTeamHarness();
    const firstTurn = ScriptedModel.held([text('Reading…')], [toolCall('Read', { file_path: 'a.ts' })]);
    harness.model('researcher').enqueue(firstTurn, 'Found it, and I looked at b.ts as told.');
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Find', prompt: 'Find the parser', run_in_background: true })],
        [toolCall('SendMessage', { task_id: 't2', message: 'Look at b.ts too.' })],
        [toolCall('TaskOutput', { task_id: 't2' })],
        'Done.',
      );
    const run = harness.team.delegate({ prompt: 'Find the parser' });
    await firstTurn.reached;
    // The coordinator sends the message while the researcher's first request is in flight.
    const sent = createDeferred<void>();
    const stop = harness.taskManager.onEvent((event) => {
      if (
        event.type === 'task-transcript' &&
        event.taskId === 't1' &&
        event.entry.type === 'tool-result' &&
        event.entry.toolName === 'SendMessage'
      )
        sent.resolve();
    });
    await sent.promise;
    stop();
    expect(JSON.stringify(harness.model('researcher').calls[0].request.messages)).not.toContain('Look at b.ts too.');
    firstTurn.release();
    await run;
    expect(lastMessageText(harness.model('researcher').calls[1].request)).toContain(
      'Message from task t1 (coordinator), which started it: Look at b.ts too.',
    );
    expect(harness.taskManager.transcript('t2').some((entry) => entry.type === 'notice' && entry.text.includes('Look at b.ts too.'))).toBe(
      true,
    );
  });

  it('the user can message a running task; a finished or unknown task gets a clear refusal', async () => {
    harness = await createTeamHarness();
    const hold = ScriptedModel.held([text('Working')], [toolCall('Read', { file_path: 'a.ts' })]);
    harness.model('researcher').enqueue(hold, 'Done, with the user’s hint.');
    const run = harness.team.delegate({ prompt: 'Look', role: 'researcher' });
    await hold.reached;
    harness.team.sendMessage('t1', 'Check the tests as well.');
    hold.release();
    await run;
    expect(lastMessageText(harness.model('researcher').calls[1].request)).toContain('Message from the user: Check the tests as well.');
    expect(() => harness.team.sendMessage('t1', 'Too late')).toThrow('Task t1 has already completed; a message cannot reach it.');
    expect(() => harness.team.sendMessage('t9', 'Hello')).toThrow('There is no task t9.');
  });
});

describe('follow-ups', () => {
  it('continue a finished run as a new turn under its root, with the whole conversation kept', async () => {
    harness = await createTeamHarness({ conversations: new MemoryConversationStore() });
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Find', prompt: 'Find the parser' })],
        'The parser is in a.ts.',
        'It has 3 callers.',
      );
    harness.model('researcher').enqueue('a.ts:1');
    const { task: root } = await harness.team.delegate({ prompt: 'Where is the parser?' });
    const { task: followUp } = await harness.team.followUp({ rootId: root.id, message: 'How many callers does it have?' });
    expect(followUp).toMatchObject({
      parentId: root.id,
      rootId: root.id,
      role: 'coordinator',
      description: 'Follow-up: How many callers does it have?',
      status: 'completed',
      output: 'It has 3 callers.',
    });
    const request = harness.model('coordinator').calls[2].request;
    // The earlier turns are all there: the task, the Agent call and its result, the answer, then the follow-up.
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(JSON.stringify(request.messages)).toContain('a.ts:1');
    expect(lastMessageText(request)).toBe('How many callers does it have?');
    // A second follow-up continues from the first.
    harness.model('coordinator').enqueue('Yes.');
    await harness.team.followUp({ rootId: root.id, message: 'Are they tested?' });
    expect(harness.model('coordinator').calls[3].request.messages).toHaveLength(7);
  });

  it('refuses clearly: an unknown run, a subtask, a run still going, a conversation no longer kept', async () => {
    const conversations = new MemoryConversationStore();
    harness = await createTeamHarness({ conversations });
    await expect(harness.team.followUp({ rootId: 't9', message: 'Hi' })).rejects.toThrow('There is no run t9 in the history');
    const hold = ScriptedModel.held(
      [text('Thinking')],
      [toolCall('Agent', { subagent_type: 'researcher', description: 'Find', prompt: 'Find' })],
    );
    harness.model('coordinator').enqueue(hold, 'Done.');
    harness.model('researcher').enqueue('Found.');
    const run = harness.team.delegate({ prompt: 'Go' });
    await hold.reached;
    await expect(harness.team.followUp({ rootId: 't1', message: 'More' })).rejects.toThrow(
      'Run t1 is still running: send it a message instead',
    );
    hold.release();
    await run;
    await expect(harness.team.followUp({ rootId: 't2', message: 'More' })).rejects.toThrow(
      'Task t2 is part of run t1; follow up the run itself (t1).',
    );
    const forgetting = await createTeamHarness();
    await expect(forgetting.team.followUp({ rootId: 't1', message: 'More' })).rejects.toThrow('There is no run t1');
    await forgetting.taskManager.close();
  });
});
