// Journey 3: review as diffs. A refactorer (picked in Delegate Task…'s role pick) proposes edits to two
// files; Review Changes shows both in the multi-file diff editor; there the user accepts one file (the
// cursor in its proposal) and rejects the other; on disk there is exactly the accepted change; Undo in the
// file reverts it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, quickInput, reviewLabel, taskRow } from '../lib/workbench.mjs';
import { snapshot } from '../lib/workspace-files.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'review';
export const title =
  'Review in the multi-file diff editor: accept one file, reject the other there; exactly the accepted change on disk; Undo reverts it';

const task = 'Make the date functions say what they return';
const parserEdit = { old_string: '/** Parses an ISO 8601 date', new_string: '/** Returns the Date for an ISO 8601 date' };
const formatEdit = { old_string: '/** Formats a date as', new_string: '/** Returns a date formatted as' };

export async function run({ open, mock, log, screenshot }) {
  const session = await open();
  const { page, server, workspaceDir } = session;
  const before = snapshot(workspaceDir);
  const parserAccepted = before['src/parser.ts'].replace(parserEdit.old_string, parserEdit.new_string);
  server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn([
        { name: 'Edit', input: { file_path: 'src/parser.ts', ...parserEdit } },
        { name: 'Edit', input: { file_path: 'src/format.ts', ...formatEdit } },
      ]);
    }
    return mock.textTurn('Proposed doc comment changes to src/parser.ts and src/format.ts.');
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  await taskRow(frame, 'refactorer', task, 'completed').waitFor();
  log('refactorer completed');
  assertEqual(snapshot(workspaceDir), before, 'proposals change nothing on disk');

  // Review Changes: both files in the multi-file diff editor, each against its proposal.
  await runCommand(page, reviewLabel);
  await page.locator('.tabs-container .tab.active', { hasText: 'Agent Team Review: refactorer' }).waitFor();
  const entry = (path) => page.locator('.multiDiffEntry', { hasText: path.split('/').pop() });
  const visibleEntry = (path) => entry(path).filter({ visible: true });
  await entry('src/parser.ts').locator('.editor.original .view-lines', { hasText: 'Parses an ISO 8601 date' }).waitFor();
  await entry('src/parser.ts').locator('.editor.modified .view-lines', { hasText: 'Returns the Date for an ISO 8601 date' }).waitFor();
  await entry('src/format.ts').locator('.editor.modified .view-lines', { hasText: 'Returns a date formatted as' }).waitFor();
  await screenshot('diff-review', page);

  // In the editor: accept src/parser.ts with the cursor in its proposal.
  await entry('src/parser.ts').locator('.editor.modified .view-line', { hasText: 'Returns the Date for' }).click();
  await runCommand(page, 'Agent Team: Accept Proposed File');
  await eventually(() => readFileSync(join(workspaceDir, 'src/parser.ts'), 'utf8') === parserAccepted, {
    what: 'the accepted change on disk',
  });
  // The editor shows what is left: src/format.ts only.
  await page.locator('.tabs-container .tab.active', { hasText: 'Agent Team Review: refactorer (t1) (1 file)' }).waitFor();
  await eventually(async () => (await entry('src/parser.ts').filter({ visible: true }).count()) === 0, {
    what: 'src/parser.ts to leave the review',
  });
  log('accepted src/parser.ts in the multi-file diff editor');

  await visibleEntry('src/format.ts').locator('.editor.modified .view-line', { hasText: 'Returns a date formatted as' }).click();
  await runCommand(page, 'Agent Team: Reject Proposed File');
  await page.locator('.tabs-container .tab', { hasText: 'Agent Team Review' }).waitFor({ state: 'detached' });
  await frame.locator('.detail', { hasText: 'rejected' }).waitFor();
  assertEqual(snapshot(workspaceDir), { ...before, 'src/parser.ts': parserAccepted }, 'on disk: exactly the accepted change');
  log('rejected src/format.ts; the review closed');

  // Undo: open the accepted file, Ctrl+Z, save: the file is as before.
  const quick = quickInput(page);
  await page.locator('.part.editor').first().click();
  await page.keyboard.press('Control+P');
  await quick.input.fill('src/parser.ts');
  await quick.widget.locator('.monaco-list-row.focused', { hasText: 'parser.ts' }).waitFor();
  await page.keyboard.press('Enter');
  const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
  await page.locator('.tabs-container .tab.active', { hasText: /^parser\.ts/ }).waitFor();
  await editor.locator('.view-lines', { hasText: 'Returns the Date for' }).waitFor();
  await page.keyboard.press('Control+Z');
  await editor.locator('.view-lines', { hasText: 'Parses an ISO 8601 date' }).waitFor();
  await page.keyboard.press('Control+S');
  await eventually(() => readFileSync(join(workspaceDir, 'src/parser.ts'), 'utf8') === before['src/parser.ts'], {
    what: 'Undo to revert the accepted change on disk',
  });
  assertEqual(snapshot(workspaceDir), before, 'after Undo, the workspace is as before');
}
