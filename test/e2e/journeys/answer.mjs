// Journey 10: a task-mode agent asks a question; its row says waiting; the user answers in the detail
// view's Answer box, and the agent goes on with the answer.
import { priorTurns } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'answer';
export const title = 'Answer a task-mode agent’s question in the sidebar: the row waits, the answer reaches the agent';

const role =
  '---\nname: clarifier\ndescription: Asks before it acts.\nmode: task\ntools: [Read]\n---\nYou clarify what the user wants, then do it.';

export async function run({ open, mock }) {
  const session = await open({ files: { '.agent-team/agents/clarifier.md': role } });
  const { page, server } = session;
  let answerSeen = '';
  server.respondWith((request) => {
    if (priorTurns(request) === 0) return mock.toolCallTurn([{ name: 'AskUser', input: { question: 'Which timezone should dates use?' } }]);
    answerSeen = request.lastMessageText;
    return mock.toolCallTurn([{ name: 'CompleteTask', input: { result: `Dates now follow: ${request.lastMessageText}` } }]);
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, 'Fix the dates', { role: 'clarifier' });
  const waiting = taskRow(frame, 'clarifier', 'Fix the dates', 'waiting');
  await waiting.waitFor();
  await waiting.click();
  const detail = frame.locator('.detail');
  await detail.locator('.composer-question', { hasText: 'Which timezone should dates use?' }).waitFor();
  const answer = detail.getByRole('textbox', { name: 'Answer' });
  await answer.click();
  await page.keyboard.type('UTC, always.');
  await detail.getByRole('button', { name: 'Send' }).click();
  await taskRow(frame, 'clarifier', 'Fix the dates', 'completed').waitFor();
  assert(answerSeen === 'The user answered: UTC, always.', `the agent got the answer: ${answerSeen}`);
  await detail.locator('.detail-result', { hasText: 'Dates now follow: The user answered: UTC, always.' }).waitFor();
}
