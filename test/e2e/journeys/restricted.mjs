// Journey 5: Restricted Mode. In a folder the user has not trusted, the commands that start agents
// (Delegate Task…, Plan and Delegate…, Run Workflow…, New Role…) are not offered: not in the command
// palette, not in the view's title bar. Their key (Ctrl+Shift+Alt+D) still explains why nothing runs;
// no role pick or input box appears, no task shows in the sidebar, and the mock provider receives no request.
import { isRestrictedMode } from '../tooling/browser.mjs';
import { assert, assertEqual, eventually } from '../lib/wait.mjs';
import { notification, openSidebar, quickInput, rows } from '../lib/workbench.mjs';

export const name = 'restricted';
export const title = 'Restricted Mode: the delegation commands are hidden, their key refuses with a message, nothing runs';

const refusal = 'Agent Team does not run agents in Restricted Mode';
const hidden = ['Agent Team: Delegate Task…', 'Agent Team: Plan and Delegate…', 'Agent Team: Run Workflow…', 'Agent Team: New Role…'];

/** The Agent Team commands the palette offers, as their labels. */
async function paletteCommands(page) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible' });
  await input.fill('>Agent Team: ');
  // A command that stays offered in Restricted Mode: the list has been filtered once it shows.
  await widget.locator('.label-name', { hasText: 'Agent Team: Select Model…' }).first().waitFor();
  const labels = await widget.locator('.monaco-list-row .label-name').allInnerTexts();
  await page.keyboard.press('Escape');
  return labels.map((label) => label.trim());
}

export async function run({ open }) {
  const session = await open({ trusted: false });
  const { page, server } = session;
  await page.locator('.part.statusbar').getByText('Restricted Mode').first().waitFor();
  assert(await isRestrictedMode(page), 'the window is in Restricted Mode');

  // The sidebar explains why nothing can run.
  const frame = await openSidebar(page);
  await frame.locator('.restricted').first().waitFor();

  const offered = await paletteCommands(page);
  for (const label of hidden) assert(!offered.includes(label), `the palette does not offer ${label} (it offers: ${offered.join(', ')})`);
  assertEqual(
    await page.locator('.part.sidebar .title-actions [aria-label^="Delegate Task"]').count(),
    0,
    'no Delegate Task button in the view title',
  );

  // The key still works, and says why nothing runs.
  await page.keyboard.press('Control+Shift+Alt+D');
  const message = notification(page, refusal);
  await eventually(async () => (await message.count()) > 0, { what: 'the refusal of the key' });
  assert(!(await quickInput(page).title.filter({ hasText: 'Delegate Task' }).isVisible()), 'no role pick or input box opened');

  assertEqual(await rows(frame).count(), 0, 'no task in the sidebar');
  assertEqual(server.requests.length, 0, 'the mock provider received no request');
}
