// Journey 1: delegate from the command palette and watch the team work in the sidebar.
// The coordinator starts a researcher in the background (held by the mock until the test has seen it
// running) and a reviewer in the foreground, reads the researcher's result with TaskOutput and answers.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert, assertEqual, deferred } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, readRows, rows, taskRow } from '../lib/workbench.mjs';

export const name = 'delegate';
export const title = 'Delegate from the palette: root, background researcher and reviewer complete; the answer shows';

const task = 'Review how we parse dates';
const finalAnswer = 'Dates are parsed in src/parser.ts:7 with new Date(), which accepts invalid input silently.';

export async function run({ open, mock, screenshot }) {
  const session = await open();
  const { page, server } = session;
  const releaseResearcher = deferred();
  let researcherId = '';
  server.respondWith((request) => {
    const agent = agentOf(request);
    if (agent === 'researcher') {
      return mock.delayed(mock.textTurn('Dates are parsed in ', 'src/parser.ts:7 with new Date().'), releaseResearcher.promise);
    }
    if (agent === 'reviewer') return mock.textTurn('[medium] src/parser.ts:7: new Date() accepts invalid input silently.');
    if (agent !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    switch (priorTurns(request)) {
      case 0:
        return mock.toolCallTurn([
          {
            name: 'Agent',
            input: {
              subagent_type: 'researcher',
              description: 'Find date parsing',
              prompt: 'Where are dates parsed? Answer with file:line.',
              run_in_background: true,
            },
          },
        ]);
      case 1:
        researcherId = /\b(?:task|started) (t\d+)/i.exec(request.lastMessageText)?.[1] ?? 'missing';
        return mock.toolCallTurn([
          {
            name: 'Agent',
            input: { subagent_type: 'reviewer', description: 'Review the parser', prompt: 'Review src/parser.ts for error handling.' },
          },
        ]);
      case 2:
        return mock.toolCallTurn([{ name: 'TaskOutput', input: { task_id: researcherId } }]);
      default:
        // The answer depends on what TaskOutput brought back, so a broken hand-over shows in the sidebar.
        return request.lastMessageText.includes('Dates are parsed in src/parser.ts:7')
          ? mock.textTurn(finalAnswer)
          : mock.textTurn(`TaskOutput did not bring back the researcher's result: ${request.lastMessageText.slice(0, 200)}`);
    }
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task);

  // The root, and nested under it the researcher, running in the background while the mock holds it.
  const root = taskRow(frame, 'coordinator', task);
  await root.waitFor();
  assertEqual(await root.getAttribute('aria-level'), '1', 'the coordinator is a root row');
  const researcherRunning = taskRow(frame, 'researcher', 'Find date parsing', 'running');
  await researcherRunning.waitFor();
  assertEqual(await researcherRunning.getAttribute('aria-level'), '2', 'the researcher is nested under the coordinator');
  await researcherRunning.click();
  const detail = frame.locator('.detail');
  await detail.locator('.detail-meta', { hasText: 'running (background)' }).waitFor();

  // The reviewer runs in the foreground and completes while the researcher is still held.
  const reviewer = taskRow(frame, 'reviewer', 'Review the parser', 'completed');
  await reviewer.waitFor();
  assertEqual(await reviewer.getAttribute('aria-level'), '2', 'the reviewer is nested under the coordinator');
  assertEqual(await researcherRunning.count(), 1, 'the researcher still runs while the reviewer completed');
  await reviewer.click();
  await detail.locator('.detail-title', { hasText: 'reviewer' }).waitFor();
  const reviewerStatus = await detail.locator('.detail-meta').textContent();
  assert(
    reviewerStatus.includes('completed') && !reviewerStatus.includes('background'),
    `the reviewer ran in the foreground (${reviewerStatus})`,
  );

  releaseResearcher.resolve();
  await frame.locator('[role="treeitem"][data-status="completed"]').nth(2).waitFor();
  await taskRow(frame, 'coordinator', task, 'completed').waitFor();
  const all = await readRows(frame);
  assertEqual(
    all.map((row) => [row.level, row.label]),
    [
      [1, `coordinator: ${task} \u2014 completed`],
      [2, 'researcher: Find date parsing \u2014 completed'],
      [2, 'reviewer: Review the parser \u2014 completed'],
    ],
    'the tree once everything completed',
  );
  assertEqual(await rows(frame).count(), 3, 'three rows');

  // The final answer, in the root's detail view.
  await taskRow(frame, 'coordinator', task, 'completed').click();
  await detail.locator('.detail-title', { hasText: 'coordinator' }).waitFor();
  const result = detail.locator('.detail-result');
  await result.filter({ hasText: finalAnswer }).waitFor();
  assert(researcherId === all[1].id, `the coordinator was given the researcher's task id (${researcherId} vs ${all[1].id})`);
  await screenshot('tree-and-detail', page);
}
