// Journey 2: Stop. The coordinator starts three background subagents: a researcher and a refactorer
// whose model streams the mock holds open, and a reviewer the mock answers when the test says so.
// Stopping the researcher from its row stops it at once and closes its request, and its siblings go
// on; stopping the coordinator then stops it and its running child.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert, assertEqual, deferred, within } from '../lib/wait.mjs';
import { clickStop, delegateFromPalette, openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'stop';
export const title =
  'Stop: a held subagent stops within a second, its request closes, siblings go on; stopping the parent stops its children';

const task = 'Check the date handling';
/** The budget for a stopped row to show "stopped" after the click (the requirement). */
const stopBudgetMs = 1000;

export async function run({ open, mock, log }) {
  const session = await open();
  const { page, server } = session;
  const releaseReviewer = deferred();
  server.respondWith((request) => {
    const agent = agentOf(request);
    if (agent === 'researcher') return mock.hangingStream({ text: ['Looking at the parser…'] });
    if (agent === 'refactorer') return mock.hangingStream({ text: ['Tidying…'] });
    if (agent === 'reviewer') return mock.delayed(mock.textTurn('No problems found.'), releaseReviewer.promise);
    if (agent !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn([
        {
          name: 'Agent',
          input: {
            subagent_type: 'researcher',
            description: 'Find date parsing',
            prompt: 'Where are dates parsed?',
            run_in_background: true,
          },
        },
        {
          name: 'Agent',
          input: { subagent_type: 'reviewer', description: 'Review the parser', prompt: 'Review src/parser.ts.', run_in_background: true },
        },
        {
          name: 'Agent',
          input: { subagent_type: 'refactorer', description: 'Tidy the parser', prompt: 'Tidy src/parser.ts.', run_in_background: true },
        },
      ]);
    }
    // The coordinator waits on its model while its subagents work.
    return mock.hangingStream({ text: ['Waiting for the team…'] });
  });

  const frame = await openSidebar(page);
  log('sidebar open');
  await delegateFromPalette(page, task);
  log('delegated');

  // Five requests: the coordinator's two turns and one per subagent.
  await within(server.waitForRequest(4), 60_000, 'the coordinator and its three subagents to call the model');
  const requestOf = (agent, turn = 0) =>
    server.requests.find((request) => agentOf(request) === agent && priorTurns(request) === turn)?.index;
  const researcherRequest = requestOf('researcher');
  const refactorerRequest = requestOf('refactorer');
  const coordinatorRequest = requestOf('coordinator', 1);
  assert(
    researcherRequest !== undefined && refactorerRequest !== undefined && coordinatorRequest !== undefined,
    'every agent called the model',
  );

  const root = taskRow(frame, 'coordinator', task, 'running');
  const researcher = taskRow(frame, 'researcher', 'Find date parsing');
  const reviewer = taskRow(frame, 'reviewer', 'Review the parser');
  const refactorer = taskRow(frame, 'refactorer', 'Tidy the parser');
  for (const row of [
    root,
    taskRow(frame, 'researcher', 'Find date parsing', 'running'),
    taskRow(frame, 'reviewer', 'Review the parser', 'running'),
    taskRow(frame, 'refactorer', 'Tidy the parser', 'running'),
  ]) {
    await row.waitFor();
  }

  log('all four rows running');
  // Stop the researcher from its row.
  const clickedAt = await clickStop(researcher);
  await taskRow(frame, 'researcher', 'Find date parsing', 'stopped').waitFor({ timeout: 10_000 });
  const stopLatency = Date.now() - clickedAt;
  log(`researcher row showed "stopped" ${stopLatency} ms after the click`);
  assert(stopLatency <= stopBudgetMs, `the stopped row showed within ${stopBudgetMs} ms of the click (took ${stopLatency} ms)`);
  await within(server.waitForClientClose(researcherRequest), 5000, "the researcher's model request to be closed");

  // Its siblings and its parent go on.
  assertEqual(await reviewer.getAttribute('data-status'), 'running', 'the reviewer still runs');
  assertEqual(await refactorer.getAttribute('data-status'), 'running', 'the refactorer still runs');
  assertEqual(await root.count(), 1, 'the coordinator still runs');
  assertEqual(server.closedRequests, 1, 'only the researcher request was closed');
  releaseReviewer.resolve();
  await taskRow(frame, 'reviewer', 'Review the parser', 'completed').waitFor();

  // The stopped row says why.
  await taskRow(frame, 'researcher', 'Find date parsing', 'stopped').click();
  await frame.locator('.detail .detail-reason', { hasText: 'stopped by the user' }).waitFor();

  // Stopping the parent stops it and its running child, and closes both their requests.
  await clickStop(root);
  await taskRow(frame, 'coordinator', task, 'stopped').waitFor({ timeout: 10_000 });
  await taskRow(frame, 'refactorer', 'Tidy the parser', 'stopped').waitFor({ timeout: 10_000 });
  await within(
    Promise.all([server.waitForClientClose(refactorerRequest), server.waitForClientClose(coordinatorRequest)]),
    5000,
    "the refactorer's and the coordinator's requests to be closed",
  );
  assertEqual(await reviewer.getAttribute('data-status'), 'completed', 'the completed reviewer stays completed');
  assertEqual(await researcher.getAttribute('data-status'), 'stopped', 'the researcher stays stopped');
  await taskRow(frame, 'refactorer', 'Tidy the parser', 'stopped').click();
  await frame.locator('.detail .detail-reason', { hasText: 'stopped because its parent task' }).waitFor();
}
