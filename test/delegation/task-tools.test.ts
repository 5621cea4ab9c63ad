import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { type TeamHarness, createTeamHarness, lastMessageText } from './team-harness.js';

const { text, toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

describe('TaskOutput', () => {
  it('returns the current status at once when block is false, and the result when it blocks', async () => {
    harness = await createTeamHarness();
    const research = ScriptedModel.held([text('Half way')], [text(' and done.')]);
    harness.model('coordinator').enqueue(
      [toolCall('Agent', { subagent_type: 'researcher', description: 'Background work', prompt: 'Work', run_in_background: true })],
      [toolCall('TaskOutput', { task_id: 't2', block: false })],
      (request) => {
        // Release the researcher only once the coordinator has seen the non-blocking answer.
        expect(lastMessageText(request)).toContain('is still running');
        research.release();
        return [toolCall('TaskOutput', { task_id: 't2' })];
      },
      'Finished.',
    );
    harness.model('researcher').enqueue(research);
    await harness.team.delegate({ prompt: 'Go' });
    const nonBlocking = lastMessageText(harness.model('coordinator').calls[2].request);
    expect(nonBlocking).toContain('Task t2 (researcher: "Background work") is still running.');
    expect(nonBlocking).toContain('Output so far:\nHalf way');
    const blocking = JSON.stringify(harness.model('coordinator').calls[3].request.messages.at(-1));
    expect(blocking).toContain('Task t2 (researcher: \\"Background work\\") completed.');
    expect(blocking).toContain('Half way and done.');
    // It read the result itself, so no notice repeats it.
    expect(blocking).not.toContain('[Agent Team notice]');
  });

  it('truncates long output with a note saying so', async () => {
    harness = await createTeamHarness();
    const longAnswer = 'x'.repeat(40_000);
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Long answer', prompt: 'Write a lot', run_in_background: true })],
        [toolCall('TaskOutput', { task_id: 't2' })],
        'Finished.',
      );
    harness.model('researcher').enqueue(longAnswer);
    await harness.team.delegate({ prompt: 'Go' });
    const result = harness
      .model('coordinator')
      .calls[2].request.messages.at(-1)
      ?.content.find((part) => part.type === 'tool-result');
    const output = result?.type === 'tool-result' ? result.output : '';
    expect(output).toContain('[Output truncated: showing 30,000 of 40,000 characters.]');
    expect(output.length).toBeLessThan(31_000);
  });

  it('refuses a task outside its own tree, listing its tasks', async () => {
    harness = await createTeamHarness();
    harness.model('coordinator').enqueue('First run done.');
    await harness.team.delegate({ prompt: 'One' });
    harness.model('coordinator').enqueue([toolCall('TaskOutput', { task_id: 't1' })], 'Second run done.');
    await harness.team.delegate({ prompt: 'Two' });
    expect(lastMessageText(harness.model('coordinator').calls[2].request)).toContain(
      'No task "t1" among the tasks you started. Your tasks: (none).',
    );
  });
});

describe('TaskStop', () => {
  it('stops the task and its whole subtree, returning the final status and partial output', async () => {
    harness = await createTeamHarness();
    const grandchild = ScriptedModel.held([text('Grandchild partial')]);
    const decideToStop = ScriptedModel.held([], [toolCall('TaskStop', { task_id: 't2' })]);
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'reviewer', description: 'Deep work', prompt: 'Delegate further', run_in_background: true })],
        decideToStop,
        'Stopped it.',
      );
    harness
      .model('reviewer')
      .enqueue([text('Child partial.'), toolCall('Agent', { subagent_type: 'researcher', description: 'Deeper', prompt: 'Look' })]);
    harness.model('researcher').enqueue(grandchild);
    const run = harness.team.delegate({ prompt: 'Go' });
    await grandchild.reached;
    decideToStop.release();
    const { task } = await run;
    expect(task.status).toBe('completed');
    expect(harness.taskManager.get('t2')).toMatchObject({ status: 'stopped', stopReason: { kind: 'stopped-by-agent', taskId: 't1' } });
    expect(harness.taskManager.get('t3')).toMatchObject({
      status: 'stopped',
      stopReason: { kind: 'parent-stopped', parentId: 't2' },
      output: 'Grandchild partial',
    });
    const result = lastMessageText(harness.model('coordinator').calls[2].request);
    expect(result).toContain('Task t2 (reviewer: "Deep work") was stopped by task t1');
    expect(result).toContain('Partial output:\nChild partial.');
    expect(harness.model('researcher').calls[0].aborted).toBe(true);
  });
});

describe('background tasks', () => {
  it('answer the start with a one-line reply, since it stays in every later request', async () => {
    harness = await createTeamHarness();
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Background work', prompt: 'Work', run_in_background: true })],
        'Done.',
      );
    // Held until the coordinator has answered: its next request must not also carry the task's end.
    const found = ScriptedModel.held([], [text('Found.')]);
    harness.model('researcher').enqueue(found);
    await harness.team.delegate({ prompt: 'Go', awaitBackgroundTasks: false });
    expect(lastMessageText(harness.model('coordinator').calls[1].request)).toBe('Started t2.');
    found.release();
    await harness.taskManager.wait('t2');
  });

  it('tell the coordinator on its next turn when they end', async () => {
    harness = await createTeamHarness();
    const research = ScriptedModel.held([], [text('Background finding.')]);
    const secondTurn = ScriptedModel.held([], [toolCall('Glob', { pattern: '*.ts' })]);
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Background work', prompt: 'Work', run_in_background: true })],
        secondTurn,
        'Done.',
      );
    harness.model('researcher').enqueue(research);
    const run = harness.team.delegate({ prompt: 'Go' });
    await secondTurn.reached;
    research.release();
    await harness.taskManager.wait('t2');
    secondTurn.release();
    await run;
    expect(lastMessageText(harness.model('coordinator').calls[2].request)).toContain(
      '[Agent Team notice] Task t2 (researcher: "Background work") completed.\nBackground finding.',
    );
  });

  it('are awaited before the final answer when awaitBackgroundTasks is set, and the answer is updated', async () => {
    harness = await createTeamHarness();
    const research = ScriptedModel.held([], [text('Late finding.')]);
    harness.model('coordinator').enqueue(
      [toolCall('Agent', { subagent_type: 'researcher', description: 'Background work', prompt: 'Work', run_in_background: true })],
      () => {
        research.release();
        return 'Preliminary answer.';
      },
      'Final answer including the late finding.',
    );
    harness.model('researcher').enqueue(research);
    const { task } = await harness.team.delegate({ prompt: 'Go', awaitBackgroundTasks: true });
    expect(task).toMatchObject({ status: 'completed', output: 'Final answer including the late finding.' });
    const followUp = lastMessageText(harness.model('coordinator').calls[2].request);
    expect(followUp).toContain('Late finding.');
    expect(followUp).toContain('Update your final answer');
  });

  it('keep running after the coordinator answers when awaitBackgroundTasks is off', async () => {
    harness = await createTeamHarness();
    const research = ScriptedModel.held([], [text('Later.')]);
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Background work', prompt: 'Work', run_in_background: true })],
        'Answer now.',
      );
    harness.model('researcher').enqueue(research);
    const { task } = await harness.team.delegate({ prompt: 'Go' });
    expect(task).toMatchObject({ status: 'completed', output: 'Answer now.' });
    expect(harness.taskManager.get('t2')?.status).toBe('running');
    research.release();
    expect(await harness.taskManager.wait('t2')).toMatchObject({ status: 'completed', output: 'Later.' });
  });
});
