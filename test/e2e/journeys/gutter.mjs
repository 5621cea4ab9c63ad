// Journey: review where the change is, and edit a proposal before accepting it. A refactorer proposes
// two changes far apart in one file and one change to another; in the review, the user clicks the
// Accept CodeLens above the second change of the first file: exactly that change lands on disk. Then
// the user types into the proposed side of the other file, saves it (Ctrl+S) and accepts the file: the
// disk has the user's version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, reviewLabel, taskRow } from '../lib/workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'gutter';
export const title = 'CodeLens Accept above one change lands exactly it; an edited, saved proposal is what Accept writes';

const task = 'Rename the first and last steps and the greeting';
const steps = `${Array.from({ length: 20 }, (_, index) => `export const step${index + 1} = ${index + 1};`).join('\n')}\n`;
const greeting = 'export const greeting = "hello";\nexport const farewell = "goodbye";\n';

export async function run({ open, mock, log }) {
  const session = await open({ files: { 'src/steps.ts': steps, 'src/greeting.ts': greeting } });
  const { page, server, workspaceDir } = session;
  server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn([
        {
          name: 'Edit',
          input: { file_path: 'src/steps.ts', old_string: 'export const step1 = 1;', new_string: 'export const firstStep = 1;' },
        },
        {
          name: 'Edit',
          input: { file_path: 'src/steps.ts', old_string: 'export const step20 = 20;', new_string: 'export const lastStep = 20;' },
        },
        { name: 'Edit', input: { file_path: 'src/greeting.ts', old_string: '"hello"', new_string: '"hi"' } },
      ]);
    }
    return mock.textTurn('Renamed the steps and shortened the greeting.');
  });
  const onDisk = (path) => readFileSync(join(workspaceDir, path), 'utf8');
  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  await taskRow(frame, 'refactorer', task, 'completed').waitFor();

  await runCommand(page, reviewLabel);
  const entry = (file) => page.locator('.multiDiffEntry', { hasText: file }).filter({ visible: true });
  const stepsProposal = entry('steps.ts').locator('.editor.modified');
  const lastLine = stepsProposal.locator('.view-line', { hasText: 'lastStep' });
  await lastLine.waitFor();
  // The lens that belongs to the last change: of the Accept lenses, the nearest one above its line.
  const acceptLenses = stepsProposal.locator('.codelens-decoration a', { hasText: 'Accept Change' });
  await eventually(async () => (await acceptLenses.count()) === 2, { what: 'an Accept lens above each of the two changes' });
  // Read once both are laid out: the multi-file editor may still be rendering (a box is then null).
  let nearest;
  await eventually(
    async () => {
      const line = await lastLine.boundingBox();
      const boxes = await Promise.all((await acceptLenses.all()).map((lens) => lens.boundingBox()));
      if (!line || boxes.some((box) => !box)) return false;
      nearest = boxes
        .map((box, index) => ({ top: box.y, index }))
        .filter(({ top }) => top < line.y)
        .sort((a, b) => b.top - a.top)[0];
      return nearest !== undefined;
    },
    { what: 'the lens above the last change to be laid out' },
  );
  await acceptLenses.nth(nearest.index).click();
  await eventually(() => onDisk('src/steps.ts') === steps.replace('step20 = 20', 'lastStep = 20'), {
    what: 'exactly the change under the clicked lens on disk',
  });
  // The other change is still up for review, with its own lenses.
  await eventually(async () => (await acceptLenses.count()) === 1, { what: 'the lenses to show the one change left' });
  assertEqual(onDisk('src/greeting.ts'), greeting, 'the other file is untouched');
  log('the Accept lens accepted exactly its change');

  // Edit the proposed side of src/greeting.ts, save it, accept the file.
  const greetingProposal = entry('greeting.ts').locator('.editor.modified');
  await greetingProposal.locator('.view-line', { hasText: '"goodbye"' }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' // edited by hand');
  await greetingProposal.locator('.view-line', { hasText: 'edited by hand' }).waitFor();
  await page.keyboard.press('Control+S');
  const mine = greeting.replace('"hello"', '"hi"').replace('"goodbye";', '"goodbye"; // edited by hand');
  // Saved into the proposal, not the file: the lenses come back for the two changes of the user's version.
  await eventually(async () => (await greetingProposal.locator('.codelens-decoration a', { hasText: 'Accept Change' }).count()) === 1, {
    what: 'the saved proposal to show its lenses again',
  });
  // The save has reached the extension only once no editor of the file is dirty: accepting before that
  // accepts the agent's version, and the late save is then refused (a race a busy machine shows).
  await eventually(async () => (await page.locator('.tab.dirty').filter({ hasText: 'greeting.ts' }).count()) === 0, {
    what: 'the saved proposal to be no longer dirty',
  });
  assertEqual(onDisk('src/greeting.ts'), greeting, 'saving a proposal writes nothing to the file');
  log('the edited proposal was saved into the proposal');
  await greetingProposal.locator('.view-line', { hasText: 'edited by hand' }).click();
  await runCommand(page, 'Agent Team: Accept Proposed File');
  await eventually(() => onDisk('src/greeting.ts') === mine, { what: "the user's version of src/greeting.ts on disk" });
  assertEqual(onDisk('src/steps.ts'), steps.replace('step20 = 20', 'lastStep = 20'), 'steps.ts keeps only the accepted change');
  log("Accept wrote the user's version");
}
