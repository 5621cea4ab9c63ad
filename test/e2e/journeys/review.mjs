// Journey 3: review as diffs. A refactorer (picked in Delegate Task…'s role pick) proposes edits to two
// files; Review Changes shows each proposal in a diff editor; the user accepts one file from the diff
// editor's title bar and rejects the other; on disk there is exactly the accepted change; Undo in the
// file reverts it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, quickInput, reviewLabel, taskRow } from '../lib/workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'review';
export const title = 'Review as diffs: accept one file, reject the other; exactly the accepted change on disk; Undo reverts it';

const task = 'Make the date functions say what they return';
const parserEdit = { old_string: '/** Parses an ISO 8601 date', new_string: '/** Returns the Date for an ISO 8601 date' };
const formatEdit = { old_string: '/** Formats a date as', new_string: '/** Returns a date formatted as' };

/** Every file under `dir` (relative path → text). */
function snapshot(dir) {
  const files = {};
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

export async function run({ open, mock, log }) {
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

  const quick = quickInput(page);
  const diff = page.locator('.monaco-diff-editor').first();
  /** Review Changes… → pick the file → its diff editor. */
  const openDiffOf = async (path) => {
    await runCommand(page, reviewLabel);
    await quick.rows.filter({ hasText: path }).first().waitFor();
    await page.keyboard.type(path);
    await quick.widget.locator('.monaco-list-row.focused', { hasText: path }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: `${path} \u2194 proposed by refactorer` }).waitFor();
  };

  // src/parser.ts: the diff shows the file as it is against the proposal; accept it.
  await openDiffOf('src/parser.ts');
  await diff.locator('.editor.original .view-lines', { hasText: 'Parses an ISO 8601 date' }).waitFor();
  await diff.locator('.editor.modified .view-lines', { hasText: 'Returns the Date for an ISO 8601 date' }).waitFor();
  await page.locator('.editor-actions [aria-label="Accept Proposed File"]').click();
  await frame.locator('.detail', { hasText: 'accepted' }).waitFor();
  await eventually(() => readFileSync(join(workspaceDir, 'src/parser.ts'), 'utf8') === parserAccepted, { what: 'the accepted change on disk' });
  log('accepted src/parser.ts');

  // src/format.ts: the diff shows the other proposal; reject it.
  await openDiffOf('src/format.ts');
  await diff.locator('.editor.modified .view-lines', { hasText: 'Returns a date formatted as' }).waitFor();
  await page.locator('.editor-actions [aria-label="Reject Proposed File"]').click();
  await page.locator('.tabs-container .tab', { hasText: 'proposed by refactorer' }).waitFor({ state: 'detached' });
  await frame.locator('.detail', { hasText: 'rejected' }).waitFor();
  assertEqual(snapshot(workspaceDir), { ...before, 'src/parser.ts': parserAccepted }, 'on disk: exactly the accepted change');
  log('rejected src/format.ts');

  // Undo: open the accepted file, Ctrl+Z, save: the file is as before.
  await page.locator('.part.editor .editor-group-container').first().click();
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
  await eventually(() => readFileSync(join(workspaceDir, 'src/parser.ts'), 'utf8') === before['src/parser.ts'], { what: 'Undo to revert the accepted change on disk' });
  assertEqual(snapshot(workspaceDir), before, 'after Undo, the workspace is as before');
}
