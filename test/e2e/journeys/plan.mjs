// Journey 9: Plan and Delegate. The planner splits the task into two parallel parts; one part's agent is
// held by the mock and the user stops it from its row; the other part finishes, the synthesizer hears
// of both, and the plan completes.
import { agentOf } from '../lib/mock-provider.mjs';
import { assert, deferred } from '../lib/wait.mjs';
import { clickStop, openSidebar, runFromPalette, taskRow } from '../lib/workbench.mjs';

export const name = 'plan';
export const title = 'Plan and Delegate: the plan unfolds in the tree; stopping one branch lets the other finish and the plan complete';

const task = 'Audit the date handling';

export async function run({ open, mock }) {
  const session = await open({ settings: { 'agentTeam.maxDepth': 1 } });
  const { page, server } = session;
  const releaseReviewer = deferred();
  let synthesizerSaw = '';
  server.respondWith((request) => {
    switch (agentOf(request)) {
      case 'planner':
        return mock.toolCallTurn([
          {
            name: 'SubmitPlan',
            input: { type: 'parallel', sub_tasks: ['Trace the parser', { task: 'Review the formatter', role: 'reviewer' }] },
          },
        ]);
      case 'researcher':
        return mock.hangingStream({ text: ['Tracing…'] });
      case 'reviewer':
        return mock.delayed(mock.textTurn('The formatter is fine.'), releaseReviewer.promise);
      case 'synthesizer':
        synthesizerSaw = request.lastMessageText;
        return mock.textTurn('The formatter is fine; the parser trace was stopped.');
      default:
        throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    }
  });

  const frame = await openSidebar(page);
  await runFromPalette(page, 'Agent Team: Plan and Delegate…', { inputTitle: /^Plan and Delegate$/, text: task });

  await taskRow(frame, 'plan', task, 'running').waitFor();
  await taskRow(frame, 'planner', `Plan: ${task}`, 'completed').waitFor();
  const researcher = taskRow(frame, 'researcher', 'Trace the parser', 'running');
  await researcher.waitFor();
  await taskRow(frame, 'reviewer', 'Review the formatter', 'running').waitFor();

  await clickStop(researcher);
  await taskRow(frame, 'researcher', 'Trace the parser', 'stopped').waitFor();
  releaseReviewer.resolve();
  await taskRow(frame, 'reviewer', 'Review the formatter', 'completed').waitFor();
  await taskRow(frame, 'synthesizer', `Combine: ${task}`, 'completed').waitFor();
  await taskRow(frame, 'plan', task, 'completed').waitFor();
  assert(
    synthesizerSaw.includes('Trace the parser') &&
      synthesizerSaw.includes('stopped by the user') &&
      synthesizerSaw.includes('The formatter is fine.'),
    `the synthesizer saw both branches: ${synthesizerSaw.slice(0, 300)}`,
  );
}
