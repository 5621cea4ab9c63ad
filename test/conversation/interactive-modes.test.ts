/**
 * Modes as seed 001 defines them: `task` and `chat` agents are leaves, never question the user at once,
 * and a `task` agent completes through `CompleteTask`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { UserChannel, UserQuestion } from '../../src/engine/conversation/user-channel.js';
import { completeTaskReminder, plainAnswerAcceptedNote } from '../../src/engine/conversation/task-completion.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';
import { type Deferred, createDeferred } from '../../src/engine/util/deferred.js';
import type { WorkflowDefinition } from '../../src/engine/workflows/workflow-definition.js';
import { loadWorkflows } from '../../src/engine/workflows/workflow-registry.js';
import { workflowRoles } from '../../src/engine/workflows/workflow-roles.js';
import { type TeamHarness, createTeamHarness, lastMessageText, toolNamesOf } from '../delegation/team-harness.js';

const { toolCall } = ScriptedModel;
const delegationTools = ['Agent', 'TaskOutput', 'TaskStop', 'SendMessage'];
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

async function addRole(name: string, mode: string, toolsLine = ''): Promise<void> {
  harness.roleFiles.files.set(
    `.agent-team/agents/${name}.md`,
    `---\nname: ${name}\ndescription: Works with the user.\nmode: ${mode}\n${toolsLine}---\nYou are ${name}.`,
  );
  await harness.roles.load();
}

/** A user who answers only when the test says so: each question waits on a promise the test resolves. */
class HeldUser implements UserChannel {
  readonly questions: Array<{ question: UserQuestion; answer: Deferred<string | undefined> }> = [];
  private readonly arrivals: Array<Deferred<void>> = [];
  async ask(question: UserQuestion): Promise<string | undefined> {
    const answer = createDeferred<string | undefined>();
    this.questions.push({ question, answer });
    this.arrivals[this.questions.length - 1]?.resolve();
    return answer.promise;
  }
  /** Resolves once the `count`th question (1-based) has been put. */
  asked(count: number): Promise<void> {
    if (this.questions.length >= count) return Promise.resolve();
    this.arrivals[count - 1] ??= createDeferred<void>();
    return this.arrivals[count - 1].promise;
  }
}

function nextUpdate(predicate: (task: TaskSnapshot) => boolean): Promise<TaskSnapshot> {
  const seen = createDeferred<TaskSnapshot>();
  const stop = harness.taskManager.onEvent((event) => {
    if (event.type === 'task-update' && predicate(event.task)) {
      stop();
      seen.resolve(event.task);
    }
  });
  return seen.promise;
}

describe('task and chat agents are leaves', () => {
  it('a task or chat role that names no tools gets no delegation tools; a single_turn one still does', async () => {
    harness = await createTeamHarness();
    await addRole('clarifier', 'task');
    await addRole('writer', 'chat');
    await addRole('helper', 'single_turn');
    harness.model('clarifier').enqueue([toolCall('CompleteTask', { result: 'Done.' })]);
    harness.model('writer').enqueue([toolCall('CompleteTask', { result: 'Done.' })]);
    harness.model('helper').enqueue('Done.');
    for (const role of ['clarifier', 'writer', 'helper']) await harness.team.delegate({ prompt: 'Go', role });
    for (const role of ['clarifier', 'writer']) {
      const tools = toolNamesOf(harness.model(role).calls[0].request);
      expect(tools).toEqual(expect.arrayContaining(['AskUser', 'CompleteTask']));
      expect(tools.filter((name) => delegationTools.includes(name))).toEqual([]);
    }
    expect(toolNamesOf(harness.model('helper').calls[0].request)).toEqual(expect.arrayContaining(delegationTools));
  });

  it('a task role whose file lists Agent may delegate (its role says otherwise)', async () => {
    harness = await createTeamHarness();
    await addRole('lead', 'task', 'tools: [Read, Agent]\n');
    harness.model('lead').enqueue([toolCall('CompleteTask', { result: 'Done.' })]);
    await harness.team.delegate({ prompt: 'Go', role: 'lead' });
    expect(toolNamesOf(harness.model('lead').calls[0].request)).toEqual(expect.arrayContaining(delegationTools));
  });
});

describe('one question to the user at a time', () => {
  it('two task agents started in one coordinator turn: the second question is put only once the first is answered, queued for you meanwhile', async () => {
    const user = new HeldUser();
    harness = await createTeamHarness({ userChannel: user });
    await addRole('dates', 'task');
    await addRole('names', 'task');
    harness
      .model('coordinator')
      .enqueue(
        [
          toolCall('Agent', { subagent_type: 'dates', description: 'Ask about dates', prompt: 'Which timezone?' }),
          toolCall('Agent', { subagent_type: 'names', description: 'Ask about names', prompt: 'Which prefix?' }),
        ],
        'Both answered.',
      );
    harness.model('dates').enqueue([toolCall('AskUser', { question: 'Which timezone?' })], [toolCall('CompleteTask', { result: 'UTC.' })]);
    harness.model('names').enqueue([toolCall('AskUser', { question: 'Which prefix?' })], [toolCall('CompleteTask', { result: 'app_.' })]);
    const queued = nextUpdate((task) => task.queuedForUser === true);
    const run = harness.team.delegate({ prompt: 'Fix dates and names' });
    await user.asked(1);
    const waitingBehind = await queued;
    const first = user.questions[0];
    // The other agent's question waits: it is not put to the user, and its task says why it waits.
    expect(user.questions).toHaveLength(1);
    expect(waitingBehind).toMatchObject({ status: 'waiting', queuedForUser: true });
    expect(waitingBehind.id).not.toBe(first.question.taskId);
    expect(harness.taskManager.get(first.question.taskId)?.queuedForUser).toBeUndefined();
    const secondPut = user.asked(2);
    const unqueued = nextUpdate((task) => task.id === waitingBehind.id && task.queuedForUser !== true);
    first.answer.resolve('The first answer.');
    await secondPut;
    expect((await unqueued).status).toBe('waiting');
    expect(user.questions[1].question.taskId).toBe(waitingBehind.id);
    user.questions[1].answer.resolve('The second answer.');
    const { task } = await run;
    expect(task).toMatchObject({ status: 'completed', output: 'Both answered.' });
    expect(harness.taskManager.list().filter((entry) => entry.queuedForUser === true)).toEqual([]);
  });

  it('a stop while queued leaves the queue: the next question is put when the first is answered', async () => {
    const user = new HeldUser();
    harness = await createTeamHarness({ userChannel: user });
    await addRole('asker', 'task');
    for (const prompt of ['one', 'two', 'three'])
      harness.model('asker').enqueue([toolCall('AskUser', { question: `Question ${prompt}?` })]);
    harness.model('asker').enqueue([toolCall('CompleteTask', { result: 'A.' })], [toolCall('CompleteTask', { result: 'C.' })]);
    const runs = ['one', 'two', 'three'].map((prompt) => harness.team.delegate({ prompt, role: 'asker' }));
    await user.asked(1);
    // Both others queue behind the first; the second one is stopped while it waits.
    await Promise.all(
      ['t2', 't3'].map((id) =>
        harness.taskManager.get(id)?.queuedForUser
          ? Promise.resolve()
          : nextUpdate((task) => task.id === id && task.queuedForUser === true),
      ),
    );
    await harness.taskManager.stop('t2');
    expect(user.questions).toHaveLength(1);
    user.questions[0].answer.resolve('Yes.');
    await user.asked(2);
    expect(user.questions.map((entry) => entry.question.taskId)).toEqual(['t1', 't3']);
    user.questions[1].answer.resolve('Yes.');
    const ended = await Promise.all(runs);
    expect(ended.map((result) => result.task.status)).toEqual(['completed', 'stopped', 'completed']);
  });
});

describe('one question at a time, in a parallel workflow group', () => {
  it('two task agents side by side: the second question waits until the first is answered', async () => {
    const user = new HeldUser();
    harness = await createTeamHarness({ userChannel: user });
    await addRole('dates', 'task');
    await addRole('names', 'task');
    harness.roleFiles.files.set(
      '.agent-team/workflows/settle.yaml',
      'description: Settle both.\ntype: parallel\nsteps:\n  - agent: dates\n    prompt: "Dates for {input}"\n  - agent: names\n    prompt: "Names for {input}"\n',
    );
    const [entry] = await loadWorkflows(harness.roleFiles, workflowRoles(harness.roles));
    expect(entry.problems).toEqual([]);
    for (const role of ['dates', 'names'])
      harness
        .model(role)
        .enqueue([toolCall('AskUser', { question: `Which ${role}?` })], [toolCall('CompleteTask', { result: `${role} settled.` })]);
    const queued = nextUpdate((task) => task.queuedForUser === true);
    const run = harness.team.runWorkflow({
      workflow: entry.workflow as WorkflowDefinition,
      input: 'the app',
      workflows: new Map([[entry.name, entry.workflow as WorkflowDefinition]]),
    });
    await user.asked(1);
    const waitingBehind = await queued;
    expect(user.questions).toHaveLength(1);
    expect(waitingBehind.id).not.toBe(user.questions[0].question.taskId);
    user.questions[0].answer.resolve('Yes.');
    await user.asked(2);
    expect(user.questions[1].question.taskId).toBe(waitingBehind.id);
    user.questions[1].answer.resolve('Yes.');
    expect((await run).task.status).toBe('completed');
  });
});

describe('a task agent completes through CompleteTask', () => {
  it('a plain answer is sent back once with a reminder; the CompleteTask that follows is the result', async () => {
    harness = await createTeamHarness();
    await addRole('clarifier', 'task');
    harness.model('clarifier').enqueue('Dates should use UTC.', [toolCall('CompleteTask', { result: 'Dates use UTC.' })]);
    const { task } = await harness.team.delegate({ prompt: 'Decide the timezone', role: 'clarifier' });
    expect(task).toMatchObject({ status: 'completed', output: 'Dates use UTC.' });
    expect(lastMessageText(harness.model('clarifier').calls[1].request)).toContain(completeTaskReminder);
    expect(completeTaskReminder).toContain('call CompleteTask with your result');
    expect(harness.model('clarifier').calls[0].request.system).toContain('Your task ends only through CompleteTask');
  });

  it('a second plain answer is accepted as the result, with a note in the transcript', async () => {
    harness = await createTeamHarness();
    await addRole('clarifier', 'task');
    harness.model('clarifier').enqueue('Dates should use UTC.', 'UTC, as I said.');
    const { task } = await harness.team.delegate({ prompt: 'Decide the timezone', role: 'clarifier' });
    expect(task).toMatchObject({ status: 'completed', output: 'UTC, as I said.' });
    expect(harness.model('clarifier').calls).toHaveLength(2);
    const notices = harness.taskManager.transcript(task.id).flatMap((entry) => (entry.type === 'notice' ? [entry.text] : []));
    expect(notices).toEqual([completeTaskReminder, plainAnswerAcceptedNote]);
  });

  it('a chat agent’s plain answer is still the chat’s next turn, not sent back', async () => {
    harness = await createTeamHarness();
    await addRole('writer', 'chat');
    harness.model('writer').enqueue('Draft.');
    const { task } = await harness.team.delegate({ prompt: 'Write', role: 'writer' });
    expect(task).toMatchObject({ status: 'completed', output: 'Draft.' });
    expect(harness.model('writer').calls).toHaveLength(1);
  });
});
