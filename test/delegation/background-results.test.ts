/**
 * No result lost: a subagent that answers while its own background tasks run waits for them and updates
 * its answer (the default), or, where its role says `backgroundTasks: hand-to-parent`, answers at once and
 * its parent hears of them. Three levels deep, and through a stop in the middle (the stopped task's
 * subtasks are stopped with it; what they had done, and that they were stopped, reaches the nearest
 * ancestor still working).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { type TeamHarness, createTeamHarness, lastMessageText } from './team-harness.js';

const { text, toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

/** A role that may read and delegate (within a researcher's reach), with an optional extra front-matter line. */
async function addRoles(names: string[], extra: Record<string, string> = {}): Promise<void> {
  for (const name of names) {
    harness.roleFiles.files.set(
      `.agent-team/agents/${name}.md`,
      `---\nname: ${name}\ndescription: The ${name}.\ntools: [Read, Glob, Grep, Agent]\n${extra[name] ?? ''}---\nDo the ${name}'s part.`,
    );
  }
  await harness.roles.reload();
}

const background = (role: string, prompt: string) =>
  toolCall('Agent', { subagent_type: role, description: `${role} work`, prompt, run_in_background: true });

describe('background results at three levels of nesting', () => {
  it('each subagent waits for its background tasks and updates its answer: the grand-helper reaches the final answer', async () => {
    harness = await createTeamHarness({ maxDepth: 4 });
    await addRoles(['helper', 'grandhelper']);
    const grand = ScriptedModel.held([], [text('Grand result: 42.')]);
    // The grand-helper finishes only after the helper and the researcher have both given a first answer.
    let firstAnswers = 0;
    const firstAnswer = (answer: string) => () => {
      if (++firstAnswers === 2) grand.release();
      return answer;
    };
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Research', prompt: 'Research the parser.' })],
        (request) => `Final: ${lastMessageText(request)}`,
      );
    harness
      .model('researcher')
      .enqueue(
        [background('helper', 'Help with the parser.')],
        firstAnswer('Researcher first answer.'),
        (request) => `Researcher updated: ${/Helper updated: [^\n]*/.exec(lastMessageText(request))?.[0] ?? 'nothing'}`,
      );
    harness
      .model('helper')
      .enqueue(
        [background('grandhelper', 'Dig deeper.')],
        firstAnswer('Helper first answer.'),
        (request) => `Helper updated: ${/Grand result: \d+\./.exec(lastMessageText(request))?.[0] ?? 'nothing'}`,
      );
    harness.model('grandhelper').enqueue(grand);

    const { task } = await harness.team.delegate({ prompt: 'Explain the parser.', awaitBackgroundTasks: true });

    expect(task.status).toBe('completed');
    expect(task.output).toContain('Researcher updated: Helper updated: Grand result: 42.');
    const helperFollowUp = lastMessageText(harness.model('helper').calls[2].request);
    expect(helperFollowUp).toContain('Grand result: 42.');
    expect(helperFollowUp).toContain('All background tasks you started have now ended.');
    expect(lastMessageText(harness.model('researcher').calls[2].request)).toContain('Helper updated: Grand result: 42.');
    // Every task ended before its parent, each having given its final answer.
    const ended = harness.taskManager.list().map((snapshot) => [snapshot.role, snapshot.status, snapshot.endedAt]);
    expect(ended.map(([role, status]) => [role, status])).toEqual([
      ['coordinator', 'completed'],
      ['researcher', 'completed'],
      ['helper', 'completed'],
      ['grandhelper', 'completed'],
    ]);
    expect(harness.taskManager.get('t3')?.output).toBe('Helper updated: Grand result: 42.');
  });

  it('a role that hands its background tasks to its parent answers at once; its parent gets their results', async () => {
    harness = await createTeamHarness({ maxDepth: 4 });
    await addRoles(['scout', 'helper'], { scout: 'backgroundTasks: hand-to-parent\n' });
    const helper = ScriptedModel.held([], [text('Helper result: 7.')]);
    harness.model('coordinator').enqueue(
      [toolCall('Agent', { subagent_type: 'scout', description: 'Scout', prompt: 'Scout the parser.' })],
      () => {
        helper.release();
        return 'First answer.';
      },
      (request) => `Final: ${/Helper result: \d+\./.exec(lastMessageText(request))?.[0] ?? 'nothing'}`,
    );
    harness.model('scout').enqueue([background('helper', 'Help.')], 'Scout answer.');
    harness.model('helper').enqueue(helper);

    const { task } = await harness.team.delegate({ prompt: 'Explain the parser.', awaitBackgroundTasks: true });

    expect(harness.model('scout').calls).toHaveLength(2);
    expect(harness.taskManager.get('t2')).toMatchObject({ status: 'completed' });
    const scoutResult = lastMessageText(harness.model('coordinator').calls[1].request);
    expect(scoutResult).toContain('Scout answer.');
    expect(scoutResult).toContain('Still running, handed to the task that started this one: t3 (helper: "helper work")');
    expect(lastMessageText(harness.model('coordinator').calls[2].request)).toContain(
      'Task t3 (helper: "helper work") completed.\nHelper result: 7.',
    );
    expect(task.output).toBe('Final: Helper result: 7.');
  });

  it('a stop in the middle stops the subtree with it, and the coordinator hears what each had done and that it was stopped', async () => {
    harness = await createTeamHarness({ maxDepth: 4 });
    await addRoles(['helper', 'grand-a', 'grand-b']);
    const grandA = ScriptedModel.held([], [text('A done.')]);
    const grandB = ScriptedModel.held([text('B partial')]);
    harness
      .model('coordinator')
      .enqueue(
        [background('researcher', 'Research.')],
        'Waiting for the research.',
        (request) => `Final after stop.\n${lastMessageText(request)}`,
      );
    harness.model('researcher').enqueue([background('helper', 'Help.')], 'Researcher answer.');
    harness.model('helper').enqueue([background('grand-a', 'Part A.'), background('grand-b', 'Part B.')], () => {
      // Grand-helper A ends while the helper waits: its notice waits in the helper's queue.
      grandA.release();
      return 'Helper answer.';
    });
    harness.model('grand-a').enqueue(grandA);
    harness.model('grand-b').enqueue(grandB);

    const run = harness.team.delegate({ prompt: 'Explain the parser.', awaitBackgroundTasks: true });
    await grandB.reached;
    await harness.taskManager.wait('t4');
    await harness.taskManager.stop('t2');
    const { task } = await run;

    expect(harness.taskManager.get('t2')).toMatchObject({ status: 'stopped', stopReason: { kind: 'user' } });
    expect(harness.taskManager.get('t3')).toMatchObject({ status: 'stopped', stopReason: { kind: 'parent-stopped', parentId: 't2' } });
    expect(harness.taskManager.get('t4')).toMatchObject({ status: 'completed', output: 'A done.' });
    expect(harness.taskManager.get('t5')).toMatchObject({
      status: 'stopped',
      stopReason: { kind: 'parent-stopped', parentId: 't3' },
      output: 'B partial',
    });
    expect(harness.model('grand-b').calls[0].aborted).toBe(true);
    // The helper never took grand-helper A's result: it moved up to the coordinator with the stop notices.
    expect(
      harness
        .model('helper')
        .calls.map((call) => lastMessageText(call.request))
        .join('\n'),
    ).not.toContain('A done.');
    const heard = lastMessageText(harness.model('coordinator').calls[2].request);
    expect(heard).toContain('Task t4 (grand-a: "grand-a work") completed.\nA done.');
    expect(heard).toContain('Task t2 (researcher: "researcher work") stopped by the user.');
    expect(heard).toContain('Task t3 (helper: "helper work") stopped because its parent task t2 was stopped.');
    expect(heard).toContain('Task t5 (grand-b: "grand-b work") stopped because its parent task t3 was stopped. Output so far: B partial');
    expect(task).toMatchObject({ status: 'completed' });
    expect(task.output).toContain('Final after stop.');
  });

  it('after three update rounds, results that come later are added to the answer as they are', async () => {
    harness = await createTeamHarness();
    await addRoles(['worker']);
    const jobs = [1, 2, 3, 4].map((job) => ScriptedModel.held([], [text(`Result ${job}.`)]));
    // Each answer releases the job started just before it, so every result ends after an answer.
    const answer = (job: number) => () => {
      jobs[job - 1]!.release();
      return `Answer ${job}.`;
    };
    harness.model('coordinator').enqueue(...[1, 2, 3, 4].flatMap((job) => [[background('worker', `Job ${job}.`)], answer(job)]));
    harness.model('worker').enqueue(...jobs);

    const { task } = await harness.team.delegate({ prompt: 'Work.', awaitBackgroundTasks: true });

    expect(harness.model('coordinator').calls).toHaveLength(8);
    expect(task.output).toBe(
      'Answer 4.\n\nResults of background tasks that ended after this answer was written:\n\nTask t5 (worker: "worker work") completed.\nResult 4.',
    );
  });
});
