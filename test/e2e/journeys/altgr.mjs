// Journey: typing in a proposal never decides a hunk. On Windows AltGr is Ctrl+Alt, so a user typing in
// the proposal side of the review (Polish AltGr+N is ń, AltGr+Y is ý on some layouts) sends Ctrl+Alt+N
// and Ctrl+Alt+Y. Those chords, pressed with the cursor on a change of the editable proposal, decide
// nothing: the file on disk is untouched and both changes wait. Then Shift+Alt+Y, the accept key, accepts
// exactly the change at the cursor, which it could not if a chord had decided one already (the cursor
// would have moved to the other change, or the change would be gone).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { openTwoChangesReview, original } from '../lib/two-changes-review.mjs';

export const name = 'altgr';
export const title = 'Typing in the proposal side (Ctrl+Alt, AltGr on Windows) never decides a hunk; Shift+Alt+Y does';

export async function run({ open, mock, log }) {
  const { page, workspaceDir, modified } = await openTwoChangesReview({ open, mock });
  const lenses = modified.locator('.codelens-decoration a', { hasText: 'Accept Change' });
  // The cursor on the last change, the proposal focused for typing.
  const focusLastChange = async () => {
    await page.locator('.tabs-container .tab', { hasText: 'Agent Team Review' }).first().click();
    await modified.locator('.view-line', { hasText: 'lastStep' }).click();
    await page.locator('#status\\.editor\\.selection', { hasText: /Ln 20\b/ }).waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('.multiDiffEntry .editor.modified') != null, undefined, {
      timeout: 10_000,
      polling: 50,
    });
  };
  const onDisk = () => readFileSync(join(workspaceDir, 'src/steps.ts'), 'utf8');
  // What AltGr+N and AltGr+Y send on Windows, typed where the user edits the proposal. (In a browser
  // Ctrl+Alt+N is VS Code's New Untitled File, which may take the focus away: it is given back each time.)
  for (const chord of ['Control+Alt+N', 'Control+Alt+Y']) {
    await focusLastChange();
    await page.keyboard.press(chord);
    assertEqual(onDisk(), original, `${chord} wrote nothing`);
  }
  await focusLastChange();
  // The lenses are drawn again when the review comes back to the front: both are there once drawn.
  await eventually(async () => (await lenses.count()) === 2, { what: 'both changes still waiting (two Accept Change lenses)' });
  log('Ctrl+Alt+N and Ctrl+Alt+Y (AltGr) decided nothing');

  // The cursor is still on the last change: the accept key takes exactly it.
  await page.keyboard.press('Shift+Alt+Y');
  await eventually(() => onDisk() === original.replace('step20 = 20', 'lastStep = 20'), {
    what: 'exactly the change at the cursor on disk',
  });
  await modified.locator('.view-line', { hasText: 'firstStep' }).waitFor();
  log('Shift+Alt+Y accepted the change at the cursor, the other still waits');
}
