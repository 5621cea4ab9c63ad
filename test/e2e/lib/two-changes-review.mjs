// The review of one file with two changes far apart, shared by the journeys about deciding the change at
// the cursor (hunk, altgr): a refactorer renames the first and last of twenty steps; the run completes
// and its review is open, the proposal's last change drawn with both Accept Change lenses above it.
import { agentOf, priorTurns } from './mock-provider.mjs';
import { delegateFromPalette, openSidebar, reviewLabel, taskRow } from './workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const task = 'Rename the first and last steps';
const lines = Array.from({ length: 20 }, (_, index) => `export const step${index + 1} = ${index + 1};`);
export const original = `${lines.join('\n')}\n`;

/** Opens the session, runs the refactorer and opens its review; `modified` is the proposal's side. */
export async function openTwoChangesReview({ open, mock }) {
  const session = await open({ files: { 'src/steps.ts': original } });
  const { page, server } = session;
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
      ]);
    }
    return mock.textTurn('Renamed the first and last steps.');
  });
  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  await taskRow(frame, 'refactorer', task, 'completed').waitFor();
  await runCommand(page, reviewLabel);
  const modified = page.locator('.multiDiffEntry', { hasText: 'steps.ts' }).filter({ visible: true }).locator('.editor.modified');
  await modified.locator('.view-line', { hasText: 'lastStep' }).waitFor();
  // The Accept/Reject lenses above each change arrive a moment after the text and move the lines: a click
  // waits for them, so the layout it clicks into is the one a key is pressed in.
  await modified.locator('.codelens-decoration a', { hasText: 'Accept Change' }).nth(1).waitFor();
  return { ...session, frame, modified };
}
