// Journey 11: steer a running background subagent from its detail view: the message typed in its
// Message box reaches it at its next turn, without stopping it.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert, deferred } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'steer';
export const title = 'Steer a running background subagent from its detail view; it reads the message at its next turn';

const task = 'Survey the date handling';

export async function run({ open, mock }) {
  const session = await open();
  const { page, server } = session;
  const releaseFirstTurn = deferred();
  let researcherSecondTurn = '';
  server.respondWith((request) => {
    const agent = agentOf(request);
    if (agent === 'researcher') {
      if (priorTurns(request) === 0)
        return mock.delayed(mock.toolCallTurn([{ name: 'Glob', input: { pattern: '**/*.ts' } }]), releaseFirstTurn.promise);
      researcherSecondTurn = request.lastMessageText;
      return mock.textTurn('Surveyed, including the tests as asked.');
    }
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn([
        {
          name: 'Agent',
          input: {
            subagent_type: 'researcher',
            description: 'Survey dates',
            prompt: 'Survey how dates are handled.',
            run_in_background: true,
          },
        },
      ]);
    }
    if (request.lastMessageText.includes('All background tasks you started have now ended')) return mock.textTurn('Done.');
    return mock.textTurn('Started the survey.');
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task);
  const researcher = taskRow(frame, 'researcher', 'Survey dates', 'running');
  await researcher.waitFor();
  await researcher.click();
  const detail = frame.locator('.detail');
  const message = detail.getByRole('textbox', { name: 'Message' });
  await message.click();
  await page.keyboard.type('Look at the tests too.');
  await page.keyboard.press('Control+Enter');
  // The host confirms the message is queued for the task before the held first turn ends.
  await detail.locator('.composer-status', { hasText: 'Sent: the agent reads it at its next turn.' }).waitFor();
  releaseFirstTurn.resolve();
  await taskRow(frame, 'researcher', 'Survey dates', 'completed').waitFor();
  assert(
    researcherSecondTurn.includes('Message from the user: Look at the tests too.'),
    `the researcher read the message: ${researcherSecondTurn.slice(0, 200)}`,
  );
}
