// Journey 21: New Role… writes a role from a short form (name, description, the default tools, no
// model), opens its file, and the role is ready at once: Delegate Task… offers it, and it runs with the
// tools the form gave it.
import { runCommand } from '../tooling/browser.mjs';
import { assert, assertEqual } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, quickInput, taskRow } from '../lib/workbench.mjs';

export const name = 'new-role';
export const title = 'New Role…: a short form writes a working role file, opened; Delegate Task… runs the new role';

export async function run({ open, mock }) {
  const session = await open();
  const { page, server } = session;
  server.respondWith((request) =>
    request.system.startsWith('You are the api-reviewer')
      ? mock.textTurn('The API has no breaking change.')
      : mock.textTurn(`unexpected agent: ${request.system.slice(0, 60)}`),
  );
  const frame = await openSidebar(page);

  await runCommand(page, 'Agent Team: New Role…');
  const quick = quickInput(page);
  const answer = async (step, text) => {
    await quick.title.filter({ hasText: step }).waitFor({ state: 'visible' });
    await quick.input.fill(text);
    await page.keyboard.press('Enter');
  };
  await answer('New Role (1/4): name', 'api-reviewer');
  await answer('New Role (2/4): description', 'Reviews API changes: breaking ones first.');
  // The tools: the defaults are picked; Enter keeps them.
  await quick.title.filter({ hasText: 'New Role (3/4): tools' }).waitFor({ state: 'visible' });
  await quick.widget.locator('.monaco-list-row', { hasText: 'WebFetch' }).first().waitFor();
  await page.keyboard.press('Enter');
  await answer('New Role (4/4): model', '');
  await quick.widget.waitFor({ state: 'hidden' });

  // The new file is open in an editor.
  await page.locator('.tabs-container .tab', { hasText: 'api-reviewer.md' }).first().waitFor();
  const editorText = await page.locator('.editor-instance .view-lines').first().textContent();
  assert((editorText ?? '').includes('description'), `the editor shows the new role file: "${(editorText ?? '').slice(0, 120)}"`);

  // The role is ready: the pick offers it, and it runs.
  await delegateFromPalette(page, 'Check the API for breaking changes', { role: 'api-reviewer' });
  await taskRow(frame, 'api-reviewer', 'Check the API for breaking changes', 'completed').waitFor();
  const request = server.requests.find((entry) => entry.system.startsWith('You are the api-reviewer'));
  assert(request !== undefined, "the mock received the new role's request");
  assertEqual(request.toolNames.join(','), 'Read,Glob,Grep,Edit,Write', 'the role runs with the tools the form gave it');
}
