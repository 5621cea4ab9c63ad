// Journey 18: the activation time the real extension host measured, from VS Code's own Running Extensions
// editor (code loading + the activate call), for the view opened once the window has settled: the
// built-in extensions that activate at startup are done, so the figure is ours, not theirs queued ahead
// of it. Written to .bench-results/code-server-activation.json for B5 (docs/performance.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { runCommand } from '../tooling/browser.mjs';
import { assert } from '../lib/wait.mjs';
import { openSidebar } from '../lib/workbench.mjs';

export const name = 'activation';
export const title = 'The real extension host reports Agent Team’s activation time (Running Extensions)';

const activationRows = (page) => page.locator('.monaco-list-row', { hasText: /Activation: \d/ });

export async function run({ open }) {
  const session = await open({});
  const { page } = session;
  await runCommand(page, 'Developer: Show Running Extensions');
  await activationRows(page).first().waitFor();
  // Settled: the same activation times three looks in a row, half a second apart.
  let previous = '';
  for (let same = 0; same < 3; ) {
    const current = (await activationRows(page).allTextContents()).join('|');
    same = current === previous ? same + 1 : 0;
    previous = current;
    await page.waitForTimeout(500);
  }
  // It opens as a modal editor over the workbench: closed before the view is opened.
  await page.keyboard.press('Escape');
  await activationRows(page).first().waitFor({ state: 'hidden' });
  await openSidebar(page);
  await runCommand(page, 'Developer: Show Running Extensions');
  // The list is sorted by activation time and virtualized: walk down it until our row is rendered.
  await activationRows(page).first().click();
  const row = page.locator('.monaco-list-row', { hasText: 'Agent Team' }).filter({ hasText: /Activation: \d/ }).first();
  for (let step = 0; step < 200 && !(await row.isVisible()); step++) await page.keyboard.press('ArrowDown');
  await row.waitFor();
  const timeText = /(?:Startup )?Activation: [\d.]+\s*ms/.exec((await row.textContent()) ?? '')?.[0] ?? '';
  const milliseconds = Number(/([\d.]+)\s*ms/.exec(timeText)?.[1]);
  assert(Number.isFinite(milliseconds), `the Running Extensions editor shows an activation time for Agent Team: "${timeText}"`);
  mkdirSync('.bench-results', { recursive: true });
  writeFileSync('.bench-results/code-server-activation.json', `${JSON.stringify({ activationMs: milliseconds, text: timeText.trim(), measuredAt: new Date().toISOString() })}\n`);
}
