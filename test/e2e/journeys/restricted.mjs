// Journey 5: Restricted Mode. In a folder the user has not trusted, Delegate Task… (from the palette
// and from the view's title bar) refuses with a message; no role pick or input box appears, no task
// shows in the sidebar, and the mock provider receives no request.
import { isRestrictedMode, runCommand } from '../tooling/browser.mjs';
import { assert, assertEqual } from '../lib/wait.mjs';
import { delegateLabel, notification, openSidebar, quickInput, rows } from '../lib/workbench.mjs';

export const name = 'restricted';
export const title = 'Restricted Mode: Delegate refuses with a message, nothing runs, the mock server receives no request';

const refusal = 'Agent Team does not run agents in Restricted Mode';

export async function run({ open }) {
  const session = await open({ trusted: false });
  const { page, server } = session;
  await page.locator('.part.statusbar').getByText('Restricted Mode').first().waitFor();
  assert(await isRestrictedMode(page), 'the window is in Restricted Mode');

  // The sidebar explains why nothing can run.
  const frame = await openSidebar(page);
  await frame.locator('.restricted').first().waitFor();

  // From the command palette.
  await runCommand(page, delegateLabel);
  const message = notification(page, refusal);
  await message.first().waitFor();
  assert(!(await quickInput(page).title.filter({ hasText: 'Delegate Task' }).isVisible()), 'no role pick or input box opened');
  await message.first().locator('.codicon-notifications-clear, .codicon-close').first().click();
  await message.first().waitFor({ state: 'hidden' });

  // From the "+" (Delegate Task…) button in the view's title bar.
  await page.locator('.part.sidebar .title-actions [aria-label^="Delegate Task"]').click();
  await message.first().waitFor();

  assertEqual(await rows(frame).count(), 0, 'no task in the sidebar');
  assertEqual(server.requests.length, 0, 'the mock provider received no request');
}
