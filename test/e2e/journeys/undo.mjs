// Journey: take back what was accepted. A refactorer proposes an edit to one file and a new file; the
// user accepts both files in the run's detail view; Undo Accepted Changes from the palette (the run picked, then all of
// its files) puts the edited file back byte for byte and deletes the created one; Undo the Undo on the
// notification puts the accepted content back. The detail view lists the files undone, then accepted.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { delegateFromPalette, notification, openSidebar, quickInput, taskRow } from '../lib/workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'undo';
export const title = 'Undo Accepted Changes: the accepted file back byte for byte, the created file gone; Undo the Undo puts them back';

const task = 'Rename the first step and add a helper';
const original = 'export const step1 = 1;\nexport const step2 = 2;\n';
const accepted = original.replace('step1', 'firstStep');
const added = 'export const helper = true;\n';

export async function run({ open, mock, log }) {
  const session = await open({ files: { 'src/steps.ts': original } });
  const { page, server, workspaceDir } = session;
  server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn([
        {
          name: 'Edit',
          input: { file_path: 'src/steps.ts', old_string: 'export const step1 = 1;', new_string: 'export const firstStep = 1;' },
        },
        { name: 'Write', input: { file_path: 'src/helper.ts', content: added } },
      ]);
    }
    return mock.textTurn('Renamed the first step and added a helper.');
  });
  const bytes = (path) => (existsSync(join(workspaceDir, path)) ? readFileSync(join(workspaceDir, path)) : null);
  const holds = (path, text) => (text === null ? bytes(path) === null : bytes(path)?.equals(Buffer.from(text, 'utf8')) === true);

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  await taskRow(frame, 'refactorer', task, 'completed').waitFor();
  // Accept each file with its Accept button in the run's detail view.
  await taskRow(frame, 'refactorer', task, 'completed').click();
  for (const path of ['src/steps.ts', 'src/helper.ts']) await frame.locator(`[aria-label="Accept ${path}"]`).click();
  await eventually(() => holds('src/steps.ts', accepted) && holds('src/helper.ts', added), {
    timeoutMs: 30_000,
    what: 'both accepted changes on disk',
  });
  log('accepted both files');

  // The palette: the run, then all of its files.
  await runCommand(page, 'Agent Team: Undo Accepted Changes');
  const quick = quickInput(page);
  await quick.widget.locator('.monaco-list-row.focused', { hasText: task }).waitFor();
  await page.keyboard.press('Enter');
  await quick.widget.locator('.monaco-list-row.focused .label-name', { hasText: /^All files$/ }).waitFor();
  await page.keyboard.press('Enter');
  await eventually(() => holds('src/steps.ts', original) && holds('src/helper.ts', null), {
    timeoutMs: 30_000,
    what: 'the file as before, byte for byte, and the created file gone',
  });
  const undone = notification(page, 'Undid the accepted changes of run');
  await undone.waitFor();
  assertEqual(
    bytes('src/steps.ts').toString('base64'),
    Buffer.from(original).toString('base64'),
    'src/steps.ts byte for byte as before the accept',
  );
  // The detail view lists them undone.
  for (const path of ['src/steps.ts', 'src/helper.ts']) await frame.locator('.change-undone', { hasText: path }).waitFor();
  log('Undo Accepted Changes put src/steps.ts back and deleted src/helper.ts; the sidebar lists them undone');

  await undone.locator('.monaco-button', { hasText: 'Undo the Undo' }).click();
  await eventually(() => holds('src/steps.ts', accepted) && holds('src/helper.ts', added), {
    timeoutMs: 30_000,
    what: 'the accepted content back',
  });
  await notification(page, 'Put the accepted changes of run').waitFor();
  for (const path of ['src/steps.ts', 'src/helper.ts']) await frame.locator('.change-accepted', { hasText: path }).waitFor();
  log('Undo the Undo put the accepted content back; the sidebar lists them accepted');
}
