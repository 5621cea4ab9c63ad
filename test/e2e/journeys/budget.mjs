// Journey: a token budget holds. With agentTeam.budgetTokens set, a researcher that keeps reading spends
// it in three turns; the run stops there, its row shows the spend against the budget and "budget spent",
// and the detail says why it stopped.
import { agentOf } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar } from '../lib/workbench.mjs';

export const name = 'budget';
export const title = 'A token budget stops a run; its row shows the spend against the budget and why it stopped';

const task = 'Read everything twice';

export async function run({ open, mock, log }) {
  const session = await open({ settings: { 'agentTeam.budgetTokens': 250 } });
  const { page, server } = session;
  server.respondWith((request) => {
    if (agentOf(request) !== 'researcher') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    return {
      ...mock.toolCallTurn([{ name: 'Read', input: { file_path: 'src/parser.ts' } }], 'Reading it again.'),
      usage: { inputTokens: 80, outputTokens: 20 },
    };
  });
  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'researcher' });
  const row = frame.locator(`[role="treeitem"][aria-label^="researcher: ${task} \u2014 "]`);
  await row.locator('.tree-figures', { hasText: 'budget spent' }).waitFor();
  const status = await row.getAttribute('data-status');
  assert(status === 'stopped' || status === 'failed', `the run ended by its budget (${status})`);
  const figures = await row.locator('.tree-figures').textContent();
  assert(/300\/250/.test(figures), `the row shows spend against the budget: ${figures}`);
  assert(server.requests.length === 3, `no request after the budget was spent (${server.requests.length})`);
  log(`row: ${figures}`);
  await row.click();
  await frame.locator('.detail-reason', { hasText: 'budget' }).waitFor();
  await frame.locator('.detail-meta', { hasText: '300 of 250 tokens' }).waitFor();
}
