// Journey 4: reload. After a run (a completed coordinator with a completed researcher and a reviewer the
// user stopped), Developer: Reload Window starts a new window and extension host; the sidebar shows the
// same history: the same rows with the same statuses and nesting, the answer in the detail view, and
// nothing runs again. A follow-up to the run after the reload still has its whole conversation.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert, assertEqual } from '../lib/wait.mjs';
import { clickStop, delegateFromPalette, openSidebar, readRows, taskRow } from '../lib/workbench.mjs';
import { runCommand, waitForWorkbench } from '../tooling/browser.mjs';

export const name = 'reload';
export const title =
  'Reload: after Developer: Reload Window the history is still there, statuses kept, nothing re-runs; a follow-up keeps the context';

const task = 'Summarize the date helpers';
const finalAnswer = 'parseDate and formatDate live in src/parser.ts and src/format.ts.';
const followUpQuestion = 'Which one parses?';

export async function run({ open, mock, log }) {
  const session = await open();
  const { page, server } = session;
  let followUpHadContext = false;
  server.respondWith((request) => {
    const agent = agentOf(request);
    const body = JSON.stringify(request.body);
    if (agent === 'coordinator' && body.includes(followUpQuestion)) {
      followUpHadContext = body.includes(finalAnswer) && body.includes(task);
      return mock.textTurn('parseDate parses.');
    }
    if (agent === 'researcher') return mock.textTurn('parseDate is in src/parser.ts; formatDate in src/format.ts.');
    if (agent === 'reviewer') return mock.hangingStream({ text: ['Reading…'] });
    if (agent !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn([
        {
          name: 'Agent',
          input: {
            subagent_type: 'researcher',
            description: 'Find the date helpers',
            prompt: 'Where are the date helpers?',
            run_in_background: true,
          },
        },
        {
          name: 'Agent',
          input: { subagent_type: 'reviewer', description: 'Review the date helpers', prompt: 'Review them.', run_in_background: true },
        },
      ]);
    }
    return mock.textTurn(finalAnswer);
  });

  let frame = await openSidebar(page);
  await delegateFromPalette(page, task);
  await taskRow(frame, 'coordinator', task, 'completed').waitFor();
  await taskRow(frame, 'researcher', 'Find the date helpers', 'completed').waitFor();
  const reviewer = taskRow(frame, 'reviewer', 'Review the date helpers', 'running');
  await clickStop(reviewer);
  await taskRow(frame, 'reviewer', 'Review the date helpers', 'stopped').waitFor();
  const before = await readRows(frame);
  assertEqual(
    before.map((row) => [row.level, row.status]),
    [
      [1, 'completed'],
      [2, 'completed'],
      [2, 'stopped'],
    ],
    'the history before the reload',
  );
  const requestsBefore = server.requests.length;
  log(`history before the reload: ${before.map((row) => `${row.id}=${row.status}`).join(', ')}`);

  // Developer: Reload Window: a new page load, a new workbench, a new extension host.
  const reloaded = page.waitForEvent('load', { timeout: 60_000 });
  await runCommand(page, 'Developer: Reload Window');
  await reloaded;
  await waitForWorkbench(page, { timeoutMs: 120_000 });
  log('window reloaded');

  frame = await openSidebar(page);
  await frame
    .locator('[role="treeitem"]')
    .nth(before.length - 1)
    .waitFor();
  const after = await readRows(frame);
  assertEqual(after, before, 'the same rows (ids, statuses, nesting, labels) after the reload');
  await taskRow(frame, 'coordinator', task, 'completed').click();
  await frame.locator('.detail .detail-result', { hasText: finalAnswer }).waitFor();
  await taskRow(frame, 'reviewer', 'Review the date helpers', 'stopped').click();
  await frame.locator('.detail .detail-reason', { hasText: 'stopped by the user' }).waitFor();
  assertEqual(server.requests.length, requestsBefore, 'nothing ran again after the reload');
  log('nothing ran again');

  // A follow-up to the run, in the new window: its conversation was kept on disk, not in the old window's memory.
  await taskRow(frame, 'coordinator', task, 'completed').click();
  const detail = frame.locator('.detail');
  await detail.getByRole('textbox', { name: 'Follow-up' }).click();
  await page.keyboard.type(followUpQuestion);
  await detail.getByRole('button', { name: 'Send' }).click();
  await taskRow(frame, 'coordinator', `Follow-up: ${followUpQuestion}`, 'completed').waitFor({ timeout: 60_000 });
  assert(followUpHadContext, 'the follow-up after the reload had the run\u2019s whole conversation');
  log('a follow-up after the reload kept the run\u2019s context');
}
