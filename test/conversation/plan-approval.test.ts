/**
 * The plan capability over a real team and task manager with scripted models: `TodoWrite` sets the task's
 * todos; with approval on, the root agent's first delegation waits for the user (asked once per run), a
 * stop stops the run with nothing started, and nobody to answer fails it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { UserChannel, UserQuestion } from '../../src/engine/conversation/user-channel.js';
import { AgentTeam } from '../../src/engine/team/agent-team.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { planCapability } from '../../src/engine/conversation/plan-capability.js';
import { readPlanAnswer } from '../../src/engine/conversation/plan-question.js';
import { type Deferred, createDeferred } from '../../src/engine/util/deferred.js';
import { MemoryRoleFiles, lastMessageText } from '../delegation/team-harness.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const { toolCall } = ScriptedModel;
const plan = [{ content: 'Read the parser', status: 'in_progress', activeForm: 'Reading the parser' }] as const;
const delegation = { subagent_type: 'researcher', description: 'Read it', prompt: 'Read parser.ts' };

/** Answers each question with the next of `answers` once the test releases it; undefined: nobody answers. */
class ScriptedUser implements UserChannel {
  readonly questions: UserQuestion[] = [];
  readonly asked = createDeferred<void>();
  constructor(private readonly answers: Array<Deferred<string | undefined>>) {}
  async ask(question: UserQuestion): Promise<string | undefined> {
    this.questions.push(question);
    this.asked.resolve();
    return this.answers[this.questions.length - 1]?.promise;
  }
}

let taskManager: TaskManager | undefined;
let roles: RoleRegistry | undefined;

afterEach(async () => {
  await taskManager?.close();
  roles?.dispose();
  taskManager = undefined;
  roles = undefined;
});

async function team(
  channel: UserChannel | undefined,
  approve: boolean,
): Promise<{ team: AgentTeam; coordinator: ScriptedModel; researcher: ScriptedModel }> {
  const clock = new ManualClock();
  const registry = new RoleRegistry({ knownTools: knownToolNames, source: new MemoryRoleFiles(), clock });
  await registry.load();
  const manager = new TaskManager({ clock, onWarning: () => {} });
  roles = registry;
  taskManager = manager;
  const coordinator = new ScriptedModel([], { modelId: 'coordinator' });
  const researcher = new ScriptedModel([], { modelId: 'researcher' });
  const plans = {
    approvePlan: () => approve,
    ...(channel ? { channel } : {}),
    howToAnswer: 'answer on stdin',
    stopTask: (id: string) => void manager.stop(id),
  };
  const built = new AgentTeam({
    taskManager: manager,
    roles: registry,
    toolbox: () => ({ readOnly: [], edit: [], proposals: async () => [] }),
    modelFor: (role) => (role === 'coordinator' ? coordinator : researcher),
    capabilities: [planCapability(plans)],
    plans,
  });
  return { team: built, coordinator, researcher };
}

describe('readPlanAnswer', () => {
  it('reads approve and stop words, anything else as changes, and an empty line as no answer yet', () => {
    for (const word of ['approve', 'Yes', 'y', 'OK.', 'lgtm']) expect(readPlanAnswer(word)).toEqual({ kind: 'approve' });
    for (const word of ['stop', 'No', 'n', 'cancel!']) expect(readPlanAnswer(word)).toEqual({ kind: 'stop' });
    expect(readPlanAnswer(' yes, but skip the tests ')).toEqual({ kind: 'edit', changes: 'yes, but skip the tests' });
    expect(readPlanAnswer('  ')).toBeUndefined();
  });
});

describe('plan approval', () => {
  it('holds the first delegation until approved, asks once per run, and TodoWrite sets the todos', async () => {
    const answer = createDeferred<string | undefined>();
    const user = new ScriptedUser([answer]);
    const { team: built, coordinator, researcher } = await team(user, true);
    coordinator.enqueue(
      [toolCall('TodoWrite', { todos: plan })],
      [toolCall('Agent', delegation)],
      [toolCall('Agent', delegation)],
      'Done.',
    );
    researcher.enqueue('First.', 'Second.');
    const run = built.delegate({ prompt: 'Read the parser' });
    await user.asked.promise;
    expect(user.questions[0]).toMatchObject({ kind: 'plan', role: 'coordinator', taskId: 't1' });
    expect(user.questions[0].text).toContain('[~] Reading the parser');
    expect(taskManager?.get('t1')).toMatchObject({ status: 'waiting', todos: plan });
    expect(researcher.calls).toHaveLength(0);
    answer.resolve('approve');
    const { task } = await run;
    expect(task.status).toBe('completed');
    expect(user.questions).toHaveLength(1);
    expect(researcher.calls).toHaveLength(2);
  });

  it('a list written in the same turn as the first delegation is the plan shown', async () => {
    const answer = createDeferred<string | undefined>();
    const user = new ScriptedUser([answer]);
    const { team: built, coordinator, researcher } = await team(user, true);
    coordinator.enqueue([toolCall('TodoWrite', { todos: plan }), toolCall('Agent', delegation)], 'Done.');
    researcher.enqueue('Found.');
    const run = built.delegate({ prompt: 'Read the parser' });
    await user.asked.promise;
    expect(user.questions[0].text).toContain('[~] Reading the parser');
    expect(user.questions[0].text).not.toContain('No todo list');
    answer.resolve('y');
    expect((await run).task.status).toBe('completed');
  });

  it('"stop" stops the run as a user stop with no subagent started', async () => {
    const answer = createDeferred<string | undefined>();
    const { team: built, coordinator, researcher } = await team(new ScriptedUser([answer]), true);
    coordinator.enqueue([toolCall('Agent', delegation)]);
    const run = built.delegate({ prompt: 'Read the parser' });
    answer.resolve('stop');
    const { task } = await run;
    expect(task).toMatchObject({ status: 'stopped', stopReason: { kind: 'user' } });
    expect(researcher.calls).toHaveLength(0);
    expect(taskManager?.children('t1')).toEqual([]);
  });

  it("changes go back to the agent as the refused calls' results", async () => {
    const changes = createDeferred<string | undefined>();
    const approval = createDeferred<string | undefined>();
    const { team: built, coordinator, researcher } = await team(new ScriptedUser([changes, approval]), true);
    coordinator.enqueue([toolCall('Agent', delegation)], [toolCall('Agent', delegation)], 'Done.');
    researcher.enqueue('Found.');
    changes.resolve('Read the tests as well.');
    approval.resolve('yes');
    await built.delegate({ prompt: 'Read the parser' });
    expect(lastMessageText(coordinator.calls[1].request)).toContain('asks for changes:\nRead the tests as well.');
    expect(researcher.calls).toHaveLength(1);
  });

  it('nobody to answer fails the run with what to do; approval off asks nobody', async () => {
    const silent = await team(undefined, true);
    silent.coordinator.enqueue([toolCall('Agent', delegation)]);
    const failed = await silent.team.delegate({ prompt: 'Read the parser' });
    expect(failed.task).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('nobody answered the plan question (answer on stdin)'),
    });
    expect(silent.researcher.calls).toHaveLength(0);
    await taskManager?.close();
    roles?.dispose();

    const user = new ScriptedUser([]);
    const free = await team(user, false);
    free.coordinator.enqueue([toolCall('Agent', delegation)], 'Done.');
    free.researcher.enqueue('Found.');
    expect((await free.team.delegate({ prompt: 'Read the parser' })).task.status).toBe('completed');
    expect(user.questions).toEqual([]);
  });
});
