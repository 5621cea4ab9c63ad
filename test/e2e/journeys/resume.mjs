// Journey: resume. A run is working (the coordinator waits on a refactorer that has proposed a file and is
// in its next model turn) when the window reloads: the new window shows the run `interrupted`, with a
// Resume button on its row; Resume finishes it in place, the refactorer going on from its last turn (its
// Write not run again, its proposal still there), its answer reaching the coordinator's pending call.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert, assertEqual, within } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, readRows, taskRow } from '../lib/workbench.mjs';
import { runCommand, waitForWorkbench } from '../tooling/browser.mjs';

export const name = 'resume';
export const title =
  'Resume: a run working when the window reloads shows interrupted; Resume finishes it from where it was, without re-running a recorded tool call';

const task = 'Add a CHANGES file';
const refactorerDone = 'Proposed CHANGES.md with one entry.';

export async function run({ open, mock, log }) {
  const session = await open();
  const { page, server } = session;
  let reloaded = false;
  let resumedWithItsWrite = false;
  server.respondWith((request) => {
    const agent = agentOf(request);
    const body = JSON.stringify(request.body);
    if (agent === 'refactorer') {
      if (priorTurns(request) === 0)
        return mock.toolCallTurn([{ name: 'Write', input: { file_path: 'CHANGES.md', content: '# Changes\n\n- First entry\n' } }]);
      // Its second turn is under way when the window reloads: no answer comes before that.
      if (!reloaded) return mock.hangingStream({ text: ['Checking…'] });
      resumedWithItsWrite = body.includes('has now been resumed') && body.includes('CHANGES.md') && !body.includes('Not run to the end');
      return mock.textTurn(refactorerDone);
    }
    if (agent !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0)
      return mock.toolCallTurn([
        {
          name: 'Agent',
          input: { subagent_type: 'refactorer', description: 'Write the CHANGES file', prompt: 'Create CHANGES.md with one entry.' },
        },
      ]);
    return mock.textTurn(`Done: ${body.includes(refactorerDone) ? 'the refactorer answered' : 'no answer'}.`);
  });

  let frame = await openSidebar(page);
  await delegateFromPalette(page, task);
  await taskRow(frame, 'refactorer', 'Write the CHANGES file', 'running').waitFor();
  // Coordinator, the refactorer's Write turn, its next turn (hanging).
  await within(server.waitForRequest(2), 60_000, 'the refactorer to start its second turn');
  const requestsBefore = server.requests.length;

  reloaded = true;
  const load = page.waitForEvent('load', { timeout: 60_000 });
  await runCommand(page, 'Developer: Reload Window');
  await load;
  await waitForWorkbench(page, { timeoutMs: 120_000 });
  log('window reloaded');

  frame = await openSidebar(page);
  const root = taskRow(frame, 'coordinator', task, 'interrupted');
  await root.waitFor({ timeout: 60_000 });
  await taskRow(frame, 'refactorer', 'Write the CHANGES file', 'interrupted').waitFor();
  assertEqual(
    (await readRows(frame)).map((row) => [row.level, row.status]),
    [
      [1, 'interrupted'],
      [2, 'interrupted'],
    ],
    'the run after the reload',
  );
  assertEqual(server.requests.length, requestsBefore, 'nothing ran on its own after the reload');
  log('the run shows interrupted');

  await root.hover();
  await root.locator('button[aria-label^="Resume"]').click();
  await taskRow(frame, 'coordinator', task, 'completed').waitFor({ timeout: 60_000 });
  await taskRow(frame, 'refactorer', 'Write the CHANGES file', 'completed').waitFor();
  assert(resumedWithItsWrite, 'the refactorer went on with its recorded Write and its result, not running it again');
  assertEqual((await readRows(frame)).length, 2, 'the same two tasks went on; no new one started');
  await taskRow(frame, 'coordinator', task, 'completed').click();
  await frame.locator('.detail .detail-result', { hasText: 'Done: the refactorer answered.' }).waitFor();
  log('Resume finished the run in place');
}
