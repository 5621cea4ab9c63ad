// Journey 20: a broken role file shows in VS Code's Problems view, at its file, with what is wrong;
// the roles are read on first use (here: Delegate Task…'s role pick, which lists the sound ones).
import { runCommand } from '../tooling/browser.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateLabel, openSidebar, quickInput } from '../lib/workbench.mjs';

export const name = 'problems';
export const title = 'A broken role file in the Problems view: its file and what is wrong; the sound roles still load';

export async function run({ open }) {
  const session = await open({
    files: {
      '.agent-team/agents/broken.md': '---\nname: broken\ntools: [Read]\n---\nThis role forgot its description.\n',
      '.agent-team/agents/linter.md': '---\ndescription: Lints the code.\ntools: [Read, Grep]\n---\nYou lint.\n',
    },
  });
  const { page } = session;
  // The extension is there once its view is (the palette lists its commands from then on).
  await openSidebar(page);

  // The role pick lists the sound role; reading the files is what reports the broken one.
  await runCommand(page, delegateLabel);
  const quick = quickInput(page);
  await quick.title.filter({ hasText: /^Delegate Task/ }).waitFor({ state: 'visible' });
  await page.keyboard.type('linter');
  await quick.widget
    .locator('.monaco-list-row .label-name', { hasText: /^\s*linter$/ })
    .first()
    .waitFor();
  await page.keyboard.press('Escape');
  await quick.widget.waitFor({ state: 'hidden' });

  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  const markers = page.locator('.markers-panel');
  await markers.getByText('broken.md').first().waitFor();
  const problem = markers.locator('.monaco-list-row', { hasText: /description/ }).first();
  await problem.waitFor();
  const text = (await problem.textContent()) ?? '';
  assert(/Agent Team/.test(text), `the problem names its source: "${text}"`);
}
