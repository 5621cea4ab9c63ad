// Journey: a multi-root workspace delegates in the folder the user picked. A workspace of two folders,
// each with its own notes.txt, no editor open: Delegate Task… first asks which folder the agents work in
// (both offered), the user picks the second, and the researcher reads that folder's notes.txt, not the
// first folder's, which is what the old behaviour (silently the first folder) would have read.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateLabel, openSidebar, quickInput, taskRow } from '../lib/workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'multi-root';
export const title = 'A multi-root workspace asks which folder, and the agents work in the one picked';

const task = 'Say what the notes say';
const folderPickTitle = 'Agent Team: Which Folder?';

export async function run({ open, mock, log }) {
  const session = await open({
    files: { 'notes.txt': 'These are the FIRST folder notes.\n' },
    extraFolders: { second: { 'notes.txt': 'These are the SECOND folder notes.\n' } },
  });
  const { page, server } = session;
  server.respondWith((request) => {
    if (agentOf(request) !== 'researcher') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    return priorTurns(request) === 0
      ? mock.toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }])
      : mock.textTurn('They are the second folder notes.');
  });
  const frame = await openSidebar(page);

  await runCommand(page, delegateLabel);
  const quick = quickInput(page);
  await quick.title.filter({ hasText: folderPickTitle }).waitFor({ state: 'visible' });
  const offered = (await quick.widget.locator('.monaco-list-row .label-name').allInnerTexts()).map((label) => label.trim());
  assert(offered.includes('workspace') && offered.includes('second'), `both folders offered (${offered.join(', ')})`);
  await page.keyboard.type('second');
  await quick.widget.locator('.monaco-list-row.focused .label-name', { hasText: /^second$/ }).waitFor();
  await page.keyboard.press('Enter');
  log('picked the folder "second"');

  await quick.title.filter({ hasText: 'Delegate Task: who should do it?' }).waitFor({ state: 'visible' });
  await page.keyboard.type('researcher');
  await quick.widget.locator('.monaco-list-row.focused .label-name', { hasText: /^\s*researcher$/ }).waitFor();
  await page.keyboard.press('Enter');
  await quick.title.filter({ hasText: /^Delegate Task to researcher$/ }).waitFor({ state: 'visible' });
  await page.keyboard.type(task);
  await page.keyboard.press('Enter');
  await taskRow(frame, 'researcher', task, 'completed').waitFor();

  const read = JSON.stringify(server.requests.at(-1)?.body ?? {});
  assert(read.includes('SECOND folder notes'), 'the researcher read the picked folder\u2019s notes.txt');
  assert(!read.includes('FIRST folder notes'), 'and not the first folder\u2019s');
  log('the researcher read the second folder\u2019s notes');
}
