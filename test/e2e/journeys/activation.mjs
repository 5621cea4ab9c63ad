// Journey 18: the activation time the real extension host measured, from VS Code's own Running Extensions
// editor (code loading + the activate call), for the view opened once the window has settled: the
// built-in extensions that activate at startup are done, so the figure is ours, not theirs queued ahead
// of it. Beside it, in the same window and just before, the time of the test-only empty extension
// (fixtures/empty-extension) activated by its command: what the host spends on activating any extension
// under the same load, B5's same-run baseline. Written to .bench-results/code-server-activation.json for
// B5 (docs/performance.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { runCommand } from '../tooling/browser.mjs';
import { assert } from '../lib/wait.mjs';
import { openSidebar } from '../lib/workbench.mjs';

export const name = 'activation';
export const title = 'The real extension host reports Agent Team’s activation time (Running Extensions), and an empty extension’s';

const activationRows = (page) => page.locator('.monaco-list-row', { hasText: /Activation: \d/ });

/** Opens Running Extensions and reads the activation time of the extension shown as `displayName`, then closes it. */
async function readActivation(page, displayName) {
  await runCommand(page, 'Developer: Show Running Extensions');
  // The list is sorted by activation time and virtualized: walk down it until the row is rendered.
  await activationRows(page).first().click();
  // By the exact name: "Agent Team" is also part of the test extensions' names, and a row found by its
  // text alone was theirs whenever they took longer (the list is sorted by time).
  const nameCell = page.locator('div.name', { hasText: new RegExp(`^${displayName.replace(/[()]/g, '\\$&')}$`) });
  const row = page
    .locator('.monaco-list-row')
    .filter({ has: nameCell })
    .filter({ hasText: /Activation: \d/ })
    .first();
  for (let step = 0; step < 200 && !(await row.isVisible()); step++) await page.keyboard.press('ArrowDown');
  await row.waitFor();
  const timeText = /(?:Startup )?Activation: [\d.]+\s*ms/.exec((await row.locator('div.activation-time').textContent()) ?? '')?.[0] ?? '';
  const milliseconds = Number(/([\d.]+)\s*ms/.exec(timeText)?.[1]);
  assert(Number.isFinite(milliseconds), `the Running Extensions editor shows an activation time for ${displayName}: "${timeText}"`);
  // It opens as a modal editor over the workbench: closed before the next step.
  await page.keyboard.press('Escape');
  await activationRows(page).first().waitFor({ state: 'hidden' });
  return { milliseconds, text: timeText.trim() };
}

export async function run({ open }) {
  const session = await open({});
  const { page } = session;
  await runCommand(page, 'Developer: Show Running Extensions');
  await activationRows(page).first().waitFor();
  // Settled: the same activation times three looks in a row, half a second apart.
  let previous = '';
  for (let same = 0; same < 3;) {
    const current = (await activationRows(page).allTextContents()).join('|');
    same = current === previous ? same + 1 : 0;
    previous = current;
    await page.waitForTimeout(500);
  }
  await page.keyboard.press('Escape');
  await activationRows(page).first().waitFor({ state: 'hidden' });
  await runCommand(page, 'Empty Extension: Activate');
  const empty = await readActivation(page, 'Empty Extension (Agent Team tests)');
  await openSidebar(page);
  const ours = await readActivation(page, 'Agent Team');
  mkdirSync('.bench-results', { recursive: true });
  writeFileSync(
    '.bench-results/code-server-activation.json',
    `${JSON.stringify({ activationMs: ours.milliseconds, text: ours.text, emptyActivationMs: empty.milliseconds, emptyText: empty.text, measuredAt: new Date().toISOString() })}\n`,
  );
}
