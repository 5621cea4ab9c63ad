// Journey: the run's plan in the sidebar, and approving it (agentTeam.approvePlan). The coordinator writes
// its todo list, which shows under the tree as it writes it; its first delegation waits for the user: the
// row says waiting, the detail view shows the plan with Approve plan, and no subagent starts until the
// click; approved, the researcher runs and the plan's items end checked.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, rows, taskRow } from '../lib/workbench.mjs';

export const name = 'plan-approval';
export const title =
  'The coordinator\u2019s todo list shows in the sidebar; with approvePlan, no subagent starts until the user approves the plan';

const task = 'Explain the date parser';
const plan = [
  { content: 'Find the date parser', status: 'in_progress', activeForm: 'Finding the date parser' },
  { content: 'Explain how it works', status: 'pending', activeForm: 'Explaining how it works' },
];

export async function run({ open, mock }) {
  const session = await open({ settings: { 'agentTeam.approvePlan': true } });
  const { page, server } = session;
  let researcherAsked = false;
  server.respondWith((request) => {
    if (agentOf(request) === 'researcher') {
      researcherAsked = true;
      return mock.textTurn('The parser is in dates.ts: it calls new Date(text).');
    }
    switch (priorTurns(request)) {
      case 0:
        return mock.toolCallTurn([{ name: 'TodoWrite', input: { todos: plan } }]);
      case 1:
        return mock.toolCallTurn([
          { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find the date parser', prompt: 'Where are dates parsed?' } },
        ]);
      case 2:
        return mock.toolCallTurn([{ name: 'TodoWrite', input: { todos: plan.map((todo) => ({ ...todo, status: 'completed' })) } }]);
      default:
        return mock.textTurn('Dates are parsed in dates.ts with new Date(text).');
    }
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task);
  const panel = frame.locator(`section.todo-panel[aria-label="Plan of ${task}"]`);
  await panel.locator('.todo-heading', { hasText: 'Plan \u00b7 0/2 done' }).waitFor();
  await panel.locator('li[data-status="in_progress"]', { hasText: 'Finding the date parser' }).waitFor();
  await panel.locator('li[data-status="pending"]', { hasText: 'Explain how it works' }).waitFor();

  const waiting = taskRow(frame, 'coordinator', task, 'waiting');
  await waiting.waitFor();
  await waiting.click();
  const detail = frame.locator('.detail');
  await detail.locator('.composer-question', { hasText: 'Approve this plan before any subagent starts?' }).waitFor();
  await detail.locator('.composer-question', { hasText: '[~] Finding the date parser' }).waitFor();
  assert((await rows(frame).count()) === 1, 'no subagent row before the plan is approved');
  assert(!researcherAsked, 'no subagent request before the plan is approved');

  await detail.getByRole('button', { name: 'Approve plan' }).click();
  await taskRow(frame, 'researcher', 'Find the date parser', 'completed').waitFor();
  await taskRow(frame, 'coordinator', task, 'completed').waitFor();
  await panel.locator('.todo-heading', { hasText: 'Plan \u00b7 2/2 done' }).waitFor();
  assert((await panel.locator('li[data-status="completed"]').count()) === 2, 'both items of the plan end checked');
}
