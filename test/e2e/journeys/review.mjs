// Journey 3: review as diffs. A refactorer (picked in Delegate Task…'s role pick) proposes edits to two
// files; Review Changes shows each proposal in a diff editor; the user accepts one file and rejects the
// other; on disk there is exactly the accepted change; Undo reverts it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, quickInput, reviewLabel, taskRow } from '../lib/workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'review';
export const title = 'Review as diffs: accept one file, reject the other; exactly the accepted change on disk; Undo reverts it';

const task = 'Make the date functions say what they return';

export async function run({ open, mock, log }) {
  const session = await open();
  const { page, server, workspaceDir } = session;
  const onDisk = (path) => readFileSync(join(workspaceDir, path), 'utf8');
  const parserBefore = onDisk('src/parser.ts');
  const formatBefore = onDisk('src/format.ts');
  server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn([
        { name: 'Edit', input: { file_path: 'src/parser.ts', old_string: '/** Parses an ISO 8601 date', new_string: '/** Returns the Date for an ISO 8601 date' } },
        { name: 'Edit', input: { file_path: 'src/format.ts', old_string: '/** Formats a date as', new_string: '/** Returns a date formatted as' } },
      ]);
    }
    return mock.textTurn('Proposed: src/parser.ts and src/format.ts doc comments.');
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  await taskRow(frame, 'refactorer', task, 'completed').waitFor();
  log('refactorer completed');
  assertEqual(onDisk('src/parser.ts'), parserBefore, 'a proposal changes nothing on disk');

  await runCommand(page, reviewLabel);
  const quick = quickInput(page);
  await quick.rows.filter({ hasText: 'src/parser.ts' }).first().waitFor();
  await page.keyboard.type('parser');
  await quick.widget.locator('.monaco-list-row.focused', { hasText: 'src/parser.ts' }).waitFor();
  await page.keyboard.press('Enter');
  const diff = page.locator('.monaco-diff-editor').first();
  await diff.locator('.editor.modified .view-lines', { hasText: 'Returns the Date for an ISO 8601 date' }).waitFor();
  await diff.locator('.editor.original .view-lines', { hasText: 'Parses an ISO 8601 date' }).waitFor();
  await page.locator('.editor-actions [aria-label="Accept Proposed File"]').click();
  await eventually(() => onDisk('src/parser.ts') !== parserBefore, { what: 'src/parser.ts to change on disk' });
  console.log(onDisk('src/parser.ts'));
  await page.keyboard.press('Control+P');
  await quick.input.fill('parser.ts');
  await quick.rows.filter({ hasText: 'parser.ts' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: /^parser\.ts/ }).waitFor();
  await page.screenshot({ path: '/tmp/e2e-explore/review-3.png' });
  await page.keyboard.press('Control+Z');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: '/tmp/e2e-explore/review-4.png' });
}
