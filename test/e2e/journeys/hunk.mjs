// Journey: decide changes where the cursor is. A refactorer proposes two changes far apart in one file;
// in the review, the cursor on the second change and the keybinding (Shift+Alt+Y) accept exactly that
// change; the cursor moves on to the one left, and Shift+Alt+N rejects it, which closes the review.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { openTwoChangesReview, original } from '../lib/two-changes-review.mjs';

export const name = 'hunk';
export const title = 'The change at the cursor: Shift+Alt+Y accepts exactly it, Shift+Alt+N rejects the next';

export async function run({ open, mock, log }) {
  const { page, frame, workspaceDir, modified } = await openTwoChangesReview({ open, mock });
  await modified.locator('.view-line', { hasText: 'lastStep' }).click();
  // The key decides the change at the cursor of the active editor: pressed only once the click has put
  // the cursor on line 20 of it (the status bar says so), or a busy machine may still have it elsewhere.
  await page.locator('#status\\.editor\\.selection', { hasText: /Ln 20\b/ }).waitFor();
  // And the key goes to that editor only once it has the keyboard focus.
  await page.waitForFunction(() => document.activeElement?.closest('.multiDiffEntry .editor.modified') != null, undefined, {
    timeout: 10_000,
    polling: 50,
  });
  await page.keyboard.press('Shift+Alt+Y');
  const onDisk = () => readFileSync(join(workspaceDir, 'src/steps.ts'), 'utf8');
  await eventually(() => onDisk() === original.replace('step20 = 20', 'lastStep = 20'), {
    what: 'exactly the change at the cursor on disk',
  });
  log('Shift+Alt+Y accepted the change at the cursor');
  // The first change is still up for review; the cursor moved to it, so the next key decides it.
  await modified.locator('.view-line', { hasText: 'firstStep' }).waitFor();
  await page.keyboard.press('Shift+Alt+N');
  await eventually(
    async () => (await page.locator('.tabs-container .tab', { hasText: 'Agent Team Review' }).filter({ visible: true }).count()) === 0,
    { what: 'the review to close' },
  );
  assertEqual(onDisk(), original.replace('step20 = 20', 'lastStep = 20'), 'the rejected change stays out');
  await frame.locator('.detail', { hasText: 'All files reviewed' }).waitFor();
  log('Shift+Alt+N rejected the other; the review closed');
}
