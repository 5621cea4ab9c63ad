// Journey: two task-mode agents started in one coordinator turn never question the user at once. One
// row waits on its question; the other says "queued for you" (data-status stays "waiting") and offers no
// Answer box; once the first is answered in the detail view, the second's question is put, answered the
// same way, and the run completes with both answers.
import { priorTurns } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'queued-question';
export const title = 'Two task-mode agents: the second question is queued for you in the tree until the first is answered';

const questions = { dates: 'Which timezone should dates use?', names: 'Which prefix should names take?' };
const roleFile = (role) =>
  `---\nname: ${role}\ndescription: Asks the user about ${role}.\nmode: task\n---\nYou are ${role}. Ask the user, then complete your task.`;

export async function run({ open, mock }) {
  const session = await open({
    files: Object.fromEntries(Object.keys(questions).map((role) => [`.agent-team/agents/${role}.md`, roleFile(role)])),
  });
  const { page, server } = session;
  const askedAt = [];
  server.respondWith((request) => {
    const role = Object.keys(questions).find((candidate) => request.system.startsWith(`You are ${candidate}.`));
    if (role === undefined) {
      if (priorTurns(request) > 0) return mock.textTurn('Both settled.');
      return mock.toolCallTurn(
        Object.keys(questions).map((name) => ({
          name: 'Agent',
          input: { subagent_type: name, description: `Settle ${name}`, prompt: `Ask about ${name}.` },
        })),
      );
    }
    if (priorTurns(request) === 0) {
      askedAt.push(role);
      return mock.toolCallTurn([{ name: 'AskUser', input: { question: questions[role] } }]);
    }
    return mock.toolCallTurn([{ name: 'CompleteTask', input: { result: `${role}: ${request.lastMessageText}` } }]);
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, 'Settle dates and names');
  const queued = frame.locator('[role="treeitem"][data-status="waiting"][data-queued-for-user="true"]');
  await queued.waitFor();
  const queuedLabel = (await queued.getAttribute('aria-label')) ?? '';
  const second = Object.keys(questions).find((role) => queuedLabel.startsWith(`${role}: Settle ${role}`));
  assert(second !== undefined && queuedLabel.endsWith('\u2014 waiting, queued for you'), `the queued row says so: ${queuedLabel}`);
  const first = Object.keys(questions).find((role) => role !== second);
  const detail = frame.locator('.detail');

  // The queued task's detail says it is queued and has no Answer box yet.
  await queued.click();
  await detail.getByText('waiting, queued for you').first().waitFor();
  assert((await detail.getByRole('textbox', { name: 'Answer' }).count()) === 0, 'a queued question offers no Answer box');

  await answer(frame, detail, page, first, 'First answer.');
  // Its turn has come: the second row waits on its own question now, queued no more.
  await frame
    .locator(`[role="treeitem"][data-status="waiting"]:not([data-queued-for-user])[aria-label^="${second}: Settle ${second}"]`)
    .waitFor();
  await answer(frame, detail, page, second, 'Second answer.');
  await taskRow(frame, 'coordinator', 'Settle dates and names', 'completed').waitFor();
  assert(askedAt.length === 2, `each agent asked once: ${askedAt.join(', ')}`);
}

async function answer(frame, detail, page, role, text) {
  await taskRow(frame, role, `Settle ${role}`, 'waiting').click();
  await detail.locator('.composer-question', { hasText: questions[role] }).waitFor();
  await detail.getByRole('textbox', { name: 'Answer' }).click();
  await page.keyboard.type(text);
  await detail.getByRole('button', { name: 'Send' }).click();
  await taskRow(frame, role, `Settle ${role}`, 'completed').waitFor();
}
