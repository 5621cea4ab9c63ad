// Journey: the context meter. With agentTeam.modelContextWindows giving the mock model a 10,000-token
// window, a researcher whose request holds 7,000 tokens shows a bar under its row's figures (past 50 %),
// "Context 70 %" in its detail and the status bar's "context 70 %"; past agentTeam.compactAt (0.6 here)
// its conversation is compacted (a summary request) and the transcript shows "compacted: N → M tokens".
import { agentOf } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar } from '../lib/workbench.mjs';

export const name = 'context';
export const title = 'The context meter shows in the row, the detail and the status bar; past the threshold the task is compacted';

const task = 'Read the parser twice';

export async function run({ open, mock, log }) {
  const session = await open({ settings: { 'agentTeam.modelContextWindows': { 'openai/mock-model': 10000 }, 'agentTeam.compactAt': 0.6 } });
  const { page, server } = session;
  let release;
  const held = new Promise((resolve) => (release = resolve));
  let turns = 0;
  server.respondWith((request) => {
    if (request.system.startsWith('You summarise the earlier part')) return mock.textTurn('SUMMARY-E2E: read src/parser.ts once.');
    if (agentOf(request) !== 'researcher') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    turns += 1;
    if (turns === 1)
      return {
        ...mock.toolCallTurn([{ name: 'Read', input: { file_path: 'src/parser.ts' } }], 'Reading.'),
        usage: { inputTokens: 7000, outputTokens: 20 },
      };
    // The second turn waits until the meter has been seen.
    return { ...mock.textTurn('It parses.'), usage: { inputTokens: 2000, outputTokens: 20 }, delay: held };
  });
  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'researcher' });
  const row = frame.locator(`[role="treeitem"][aria-label^="researcher: ${task} \u2014 "]`);
  await row.locator('.tree-figures[data-context="70"]').waitFor();
  await page.locator('.statusbar-item', { hasText: 'context 70 %' }).first().waitFor();
  await row.click();
  await frame.locator('.detail-meta', { hasText: /Context\d+ % of 10k tokens/ }).waitFor();
  // Compacted before the held request: the summary was asked for between the two turns.
  await server.waitForRequest(2);
  assert(server.requests[1].system.startsWith('You summarise the earlier part'), 'a summary request before the next turn');
  release();
  await row.and(frame.locator('[data-status="completed"]')).waitFor();
  await frame
    .locator('.transcript', { hasText: /compacted: \d+ → \d+ tokens/ })
    .first()
    .waitFor();
  log('the row, the detail and the status bar showed 70 %; compacted before the next turn');
}
