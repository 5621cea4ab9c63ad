// Journey 12: continue a finished run with a follow-up from the root's detail view: the follow-up runs as
// a task under the root and its agent has the whole earlier conversation.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'follow-up';
export const title = 'Continue a finished run with a follow-up: a new turn under the root, with the earlier context';

const task = 'Where do we parse dates?';

export async function run({ open, mock }) {
  const session = await open();
  const { page, server } = session;
  let followUpSawEarlierAnswer = false;
  server.respondWith((request) => {
    if (agentOf(request) !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0) return mock.textTurn('Dates are parsed in src/parser.ts:7.');
    followUpSawEarlierAnswer = JSON.stringify(request.body).includes('Dates are parsed in src/parser.ts:7.');
    return mock.textTurn('No, src/parser.ts:7 ignores timezones.');
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task);
  const root = taskRow(frame, 'coordinator', task, 'completed');
  await root.waitFor();
  await root.click();
  const detail = frame.locator('.detail');
  const box = detail.getByRole('textbox', { name: 'Follow-up' });
  await box.click();
  await page.keyboard.type('Does it handle timezones?');
  await detail.getByRole('button', { name: 'Send' }).click();
  const followUp = taskRow(frame, 'coordinator', 'Follow-up: Does it handle timezones?', 'completed');
  await followUp.waitFor();
  assert((await followUp.getAttribute('aria-level')) === '2', 'the follow-up runs under the root');
  assert(followUpSawEarlierAnswer, 'the follow-up had the earlier conversation');
  await followUp.click();
  await detail.locator('.detail-result', { hasText: 'No, src/parser.ts:7 ignores timezones.' }).waitFor();
}
