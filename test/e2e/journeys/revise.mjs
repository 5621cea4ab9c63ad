// Journey: send a proposal back. A refactorer proposes an edit; in the review the user runs Request
// Changes… with a comment; the same refactorer (its context kept) revises the proposal, and the revision
// opens as a diff against the previous proposal; accepting writes the revised change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert, eventually } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, quickInput, reviewLabel, taskRow } from '../lib/workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'revise';
export const title = 'Request Changes: the subagent revises its proposal; the revised diff shows against the previous one';

const task = 'Document parseDate';
const comment = 'Also say that it throws on invalid input';

export async function run({ open, mock, log }) {
  const session = await open();
  const { page, server, workspaceDir } = session;
  server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    const turns = priorTurns(request);
    if (turns === 0)
      return mock.toolCallTurn([
        {
          name: 'Edit',
          input: {
            file_path: 'src/parser.ts',
            old_string: '/** Parses an ISO 8601 date',
            new_string: '/** Returns the Date for an ISO 8601 date',
          },
        },
      ]);
    if (turns === 1) return mock.textTurn('Documented what parseDate returns.');
    // The revision: its own conversation went on, with the comment as the user's next message.
    if (turns === 2)
      assert(request.lastMessageText.includes(comment), `the revision got the comment: ${request.lastMessageText.slice(0, 200)}`);
    if (turns === 2)
      return mock.toolCallTurn([
        {
          name: 'Edit',
          input: {
            file_path: 'src/parser.ts',
            old_string: '/** Returns the Date for an ISO 8601 date',
            new_string: '/** Returns the Date for an ISO 8601 date (throws on invalid input)',
          },
        },
      ]);
    return mock.textTurn('Added that it throws.');
  });
  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  await taskRow(frame, 'refactorer', task, 'completed').waitFor();

  await runCommand(page, reviewLabel);
  const entry = page.locator('.multiDiffEntry', { hasText: 'parser.ts' }).filter({ visible: true });
  await entry.locator('.editor.modified .view-line', { hasText: 'Returns the Date for' }).click();
  await runCommand(page, 'Agent Team: Request Changes…');
  const quick = quickInput(page);
  await quick.title.filter({ hasText: 'Request Changes: refactorer' }).waitFor();
  await page.keyboard.type(comment);
  await page.keyboard.press('Enter');
  log('asked for changes');

  // The revision's diff: the previous proposal on the left, the revised one on the right.
  await page.locator('.tabs-container .tab.active', { hasText: 'Agent Team Revision: refactorer' }).waitFor({ timeout: 60_000 });
  const revised = page.locator('.multiDiffEntry', { hasText: 'parser.ts' }).filter({ visible: true });
  await revised.locator('.editor.original .view-lines', { hasText: 'Returns the Date for an ISO 8601 date' }).waitFor();
  await revised.locator('.editor.modified .view-lines', { hasText: '(throws on invalid input)' }).waitFor();
  await taskRow(frame, 'refactorer', 'Revision: Also say that it throws on invalid input', 'completed').waitFor();
  log('the revision shows against the previous proposal');

  await revised.locator('.editor.modified .view-line', { hasText: 'throws on invalid input' }).click();
  await runCommand(page, 'Agent Team: Accept Proposed File');
  await eventually(
    () =>
      readFileSync(join(workspaceDir, 'src/parser.ts'), 'utf8').includes(
        '/** Returns the Date for an ISO 8601 date (throws on invalid input)',
      ),
    { what: 'the revised change on disk' },
  );
  log('accepted the revised change');
}
