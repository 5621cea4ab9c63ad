// Journey: overlapping parallel edits, resolved in the diff editor. The coordinator starts two
// refactorers in one turn (they run side by side); each changes the same line of src/settings.ts its own
// way. The user accepts the first task's proposal, then the second's: that is a conflict, and nothing of
// it is written. The warning's "Review Rebased Change" opens the diff editor on the file as it now is,
// the proposed side holding both sides between conflict markers. Accepting with the markers still in asks
// first (declined: nothing written). The user types a resolution over the proposed side, saves it
// (Ctrl+S: the user's edit of the proposal) and accepts: the disk holds exactly the resolution.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual, eventually } from '../lib/wait.mjs';
import { delegateFromPalette, notification, openSidebar, quickInput, reviewLabel, taskRow } from '../lib/workbench.mjs';
import { snapshot } from '../lib/workspace-files.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'conflict';
export const title =
  'Two tasks change one line: the second Accept is a conflict; Review Rebased Change shows both sides marked; the saved resolution is what Accept writes';

const coordinatorTask = 'Tidy the client settings';
const original = 'export const timeout = 30;\nexport const retries = 3;\n';
const refactorers = {
  rename: {
    description: 'Rename the timeout',
    prompt: 'Rename timeout to timeoutSeconds in src/settings.ts.',
    newLine: 'export const timeoutSeconds = 30;',
  },
  raise: {
    description: 'Raise the timeout',
    prompt: 'Raise the timeout to 60 seconds in src/settings.ts.',
    newLine: 'export const timeout = 60;',
  },
};
const renamed = original.replace('export const timeout = 30;', refactorers.rename.newLine);
// What the user makes of the two: the rename of one and the value of the other. Plain identifiers and
// digits only, so what is typed is what lands (no bracket or quote the editor would close by itself).
const resolutionLines = ['export const timeoutSeconds = 60;', 'export const retries = 3;'];
const resolution = `${resolutionLines.join('\n')}\n`;

export async function run({ open, mock, log }) {
  const session = await open({ files: { 'src/settings.ts': original } });
  const { page, server, workspaceDir } = session;
  const before = snapshot(workspaceDir);
  const settingsOnDisk = () => readFileSync(join(workspaceDir, 'src/settings.ts'), 'utf8');
  server.respondWith((request) => {
    const agent = agentOf(request);
    if (agent === 'coordinator') {
      if (priorTurns(request) > 0) return mock.textTurn('Both proposals for src/settings.ts are ready for review.');
      return mock.toolCallTurn(
        Object.values(refactorers).map(({ description, prompt }) => ({
          name: 'Agent',
          input: { subagent_type: 'refactorer', description, prompt },
        })),
      );
    }
    if (agent !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) > 0) return mock.textTurn('Proposed the change to src/settings.ts.');
    const refactorer = Object.values(refactorers).find(({ prompt }) => request.lastMessageText.includes(prompt));
    if (!refactorer) throw new Error(`a refactorer with an unknown task: ${request.lastMessageText.slice(0, 120)}`);
    // Both edit the same line, each read from the file as it was before either change.
    return mock.toolCallTurn([
      { name: 'Edit', input: { file_path: 'src/settings.ts', old_string: 'export const timeout = 30;', new_string: refactorer.newLine } },
    ]);
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, coordinatorTask);
  await taskRow(frame, 'coordinator', coordinatorTask, 'completed').waitFor();
  const raiseId = await taskRow(frame, 'refactorer', refactorers.raise.description, 'completed').getAttribute('data-task-id');
  assertEqual(snapshot(workspaceDir), before, 'proposals change nothing on disk');
  log(`both refactorers completed (the later one: ${raiseId})`);

  // The first task's proposal: reviewed (two tasks wait, so Review Changes… asks which) and accepted.
  await reviewChangesOf(page, refactorers.rename.description);
  const reviewEntry = page.locator('.multiDiffEntry', { hasText: 'settings.ts' }).filter({ visible: true }).locator('.editor.modified');
  await reviewEntry.locator('.view-line', { hasText: 'timeoutSeconds = 30' }).click();
  await runCommand(page, 'Agent Team: Accept Proposed File');
  await eventually(() => settingsOnDisk() === renamed, { what: "the first task's change on disk" });
  await page.locator('.tabs-container .tab', { hasText: 'Agent Team Review' }).waitFor({ state: 'detached' });
  log('accepted the rename');

  // The second task's proposal: the only one left, so Review Changes… opens it at once. Its Accept is a
  // conflict: a warning with the way to resolve it, and nothing written.
  await runCommand(page, reviewLabel);
  await page.locator('.tabs-container .tab.active', { hasText: 'Agent Team Review' }).waitFor();
  await reviewEntry.locator('.view-line', { hasText: 'timeout = 60' }).click();
  await runCommand(page, 'Agent Team: Accept Proposed File');
  const conflictWarning = notification(page, 'nothing was written');
  await conflictWarning.waitFor();
  assertEqual(settingsOnDisk(), renamed, 'a conflicting Accept writes nothing');
  log('the second Accept reported a conflict');

  // Review Rebased Change: the diff editor against the file as it is, both sides between markers.
  await conflictWarning.getByRole('button', { name: 'Review Rebased Change' }).click();
  await page.locator('.tabs-container .tab.active', { hasText: `proposed by refactorer (${raiseId})` }).waitFor();
  const proposedSide = page.locator('.monaco-diff-editor .editor.modified').filter({ visible: true });
  const proposedLine = (text) => proposedSide.locator('.view-line', { hasText: text });
  // (Monaco shows spaces as no-break spaces: \s matches both.)
  await proposedLine(/^<<<<<<<\s/).waitFor();
  await proposedLine('timeoutSeconds = 30').waitFor();
  await proposedLine(/^=======$/).waitFor();
  await proposedLine('timeout = 60').waitFor();
  await proposedLine(new RegExp(`^>>>>>>>\\stask\\s${raiseId}$`)).waitFor();
  log(`the rebased proposal shows both sides (${await proposedLine(/^<<<<<<<\s/).textContent()} / >>>>>>> task ${raiseId})`);

  // Accepting it with the markers still in asks first; the user declines.
  await proposedLine('timeout = 60').click();
  await runCommand(page, 'Agent Team: Accept Proposed File');
  const markersQuestion = page.locator('.monaco-dialog-box', { hasText: 'still has conflict markers' });
  await markersQuestion.getByRole('button', { name: 'Cancel' }).click();
  await markersQuestion.waitFor({ state: 'detached' });
  assertEqual(settingsOnDisk(), renamed, 'declining the markers question writes nothing');
  log('Accept with markers asked first; declined');

  // The user replaces the proposed side with the resolution and saves it into the proposal.
  await proposedLine('timeout = 60').click();
  await page.waitForFunction(() => document.activeElement?.closest('.monaco-diff-editor .editor.modified') != null, undefined, {
    timeout: 10_000,
    polling: 50,
  });
  await page.keyboard.press('Control+A');
  for (const line of resolutionLines) {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
  await proposedLine('timeoutSeconds = 60').waitFor();
  await eventually(async () => (await proposedLine(/^<<<<<<<|^=======$|^>>>>>>>/).count()) === 0, {
    what: 'the markers to be gone from the proposed side',
  });
  // The edited proposal shows as unsaved on some tab: VS Code marks the review's multi-file tab (it shows
  // the same document), not necessarily this one.
  const dirtyTab = page.locator('.tabs-container .tab.dirty');
  await dirtyTab.first().waitFor();
  await page.keyboard.press('Control+S');
  // Saved once no editor of it is dirty: only then has the extension taken the user's version.
  await eventually(async () => (await dirtyTab.count()) === 0, { what: 'the saved proposal to be no longer dirty' });
  assertEqual(settingsOnDisk(), renamed, 'saving the proposal writes nothing to the file');
  log('the resolution is saved into the proposal');

  await proposedLine('timeoutSeconds = 60').click();
  await runCommand(page, 'Agent Team: Accept Proposed File');
  await eventually(() => settingsOnDisk() === resolution, { what: 'exactly the resolution on disk' });
  assertEqual(snapshot(workspaceDir), { ...before, 'src/settings.ts': resolution }, 'on disk: the resolution, nothing else changed');
  log('Accept wrote exactly the resolution');
}

/** Review Changes… when several tasks have changes waiting: the task is picked by its description. */
async function reviewChangesOf(page, description) {
  await runCommand(page, reviewLabel);
  const quick = quickInput(page);
  await quick.title.filter({ hasText: 'Review Changes' }).waitFor({ state: 'visible' });
  await page.keyboard.type(description);
  await quick.widget.locator('.monaco-list-row.focused', { hasText: description }).waitFor();
  await page.keyboard.press('Enter');
  await quick.widget.waitFor({ state: 'hidden' });
}
