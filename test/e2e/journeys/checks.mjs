// Journey: proposals arrive with evidence (issue 40). A trusted folder with a real test script
// (`node --test`, named in .agent-team/checks.yaml; no network); a refactorer's proposal breaks one test.
// Once the run ends the checks ask to run (the command approval's notification: Allow once); then the run's
// row carries the badge "1 new failure: adds two numbers", its detail view lists the check as failed with
// that new failure, and the review shows the same line above the file in the multi-file diff editor.
// The user mends the proposal there and saves it: the checks run again on what is proposed now, and the
// line and the badge say they pass. Nothing on disk changes.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual } from '../lib/wait.mjs';
import { delegateFromPalette, notification, openSidebar, reviewLabel, rowById, taskRow } from '../lib/workbench.mjs';
import { snapshot } from '../lib/workspace-files.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'checks';
export const title =
  'Checks on a proposal: the row, the detail view and the review say "1 new failure: <name>"; an edit in the review runs them again';

const task = 'Simplify add';
const failureName = 'adds two numbers';
const files = {
  '.agent-team/checks.yaml': 'checks:\n  - name: tests\n    command: node --test test/math.test.js\n    timeoutSeconds: 60\n',
  'math.js': 'exports.add = (a, b) => a + b;\nexports.one = 1;\n',
  'test/math.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const { add, one } = require('../math.js');",
    `test('${failureName}', () => assert.strictEqual(add(2, 3), 5));`,
    "test('one is one', () => assert.strictEqual(one, 1));",
    '',
  ].join('\n'),
};

export async function run({ open, mock, log, screenshot }) {
  const session = await open({ files });
  const { page, server, workspaceDir } = session;
  const before = snapshot(workspaceDir);
  server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0)
      return mock.toolCallTurn([{ name: 'Edit', input: { file_path: 'math.js', old_string: 'a + b', new_string: 'a - b' } }]);
    return mock.textTurn('Simplified add in math.js.');
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  const row = taskRow(frame, 'refactorer', task, 'completed');
  await row.waitFor();
  const runId = await row.getAttribute('data-task-id');
  log(`run ${runId} completed with its proposal`);

  // Checks are the repository's code: they run only once the user allows them (as agents' commands).
  const question = notification(page, 'node --test test/math.test.js');
  await question.waitFor({ timeout: 60_000 });
  await screenshot('checks-approval', page);
  await question.getByRole('button', { name: 'Allow once' }).click();
  log('allowed the check once');

  // The row's badge; the failure's name in its accessible name.
  const badge = rowById(frame, runId).locator('.tree-figures[data-checks="new-failures"][data-checks-label="\u2717 1 new failure"]');
  await badge.waitFor({ timeout: 90_000 });
  await frame.locator(`[role="treeitem"][data-task-id="${runId}"][aria-label*="checks: 1 new failure: ${failureName}"]`).waitFor();
  log('the row says 1 new failure');

  // The run's detail view: the check failed, with its new failure named.
  await row.click();
  const checks = frame.locator('.detail section.checks[aria-label="Checks"]');
  const result = checks.locator('li.check-result[data-check-name="tests"][data-status="failed"]');
  await result.locator('.check-line', { hasText: `1 new failure: ${failureName}` }).waitFor();
  await result.locator('.check-new-failures li', { hasText: failureName }).waitFor();
  await checks.getByRole('button', { name: 'Run Checks Again' }).waitFor();
  await screenshot('checks-detail', page);

  // The review: the same verdict above the file, in the multi-file diff editor.
  await runCommand(page, reviewLabel);
  await page.locator('.tabs-container .tab.active', { hasText: 'Agent Team Review: refactorer' }).waitFor();
  const entry = page.locator('.multiDiffEntry', { hasText: 'math.js' }).filter({ visible: true });
  await entry.locator('.editor.modified .view-lines', { hasText: 'a - b' }).waitFor();
  await entry.locator('.editor.modified .codelens-decoration', { hasText: `Checks: 1 new failure: ${failureName}` }).waitFor();
  await screenshot('checks-review', page);
  log('the review shows the verdict above the file');

  // The user mends the proposal in the review (a - b + 2 * b) and saves it: the checks run again on it.
  const proposed = entry.locator('.editor.modified');
  await proposed.locator('.view-line', { hasText: 'a - b' }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type(' + 2 * b');
  await proposed.locator('.view-line', { hasText: 'a - b + 2 * b;' }).waitFor();
  await page.keyboard.press('Control+S');
  const askedAgain = notification(page, 'node --test test/math.test.js');
  await askedAgain.waitFor({ timeout: 60_000 });
  await askedAgain.getByRole('button', { name: 'Allow once' }).click();
  await proposed.locator('.codelens-decoration', { hasText: 'Checks passed' }).waitFor({ timeout: 90_000 });
  await rowById(frame, runId).locator('.tree-figures[data-checks="passed"][data-checks-label="\u2713 checks"]').waitFor();
  await screenshot('checks-rerun', page);
  log('after the edit the checks ran again and pass');

  assertEqual(snapshot(workspaceDir), before, 'checks and proposals change nothing on disk');
}
