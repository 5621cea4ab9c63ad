// Journey 7: nested foreground delegation completes in the sidebar at a concurrency limit of 1.
// The coordinator hands two reviewers work in one turn (foreground, the default); each asks a researcher
// in the foreground (a reviewer reaches the read-only researcher; the reverse is out of reach, since the
// reviewer may run commands). Every waiting agent gives its slot to the agent it waits for, so the whole
// tree completes even though only one task may work at a time.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, readRows, taskRow } from '../lib/workbench.mjs';

export const name = 'nested';
export const title = 'Nested foreground delegation (reviewers asking researchers) completes in the tree at a limit of 1';

const task = 'Review the parser in two parts';

export async function run({ open, mock }) {
  const session = await open({ settings: { 'agentTeam.maxConcurrentTasks': 1 } });
  const { page, server } = session;
  server.respondWith((request) => {
    const agent = agentOf(request);
    if (agent === 'researcher') return mock.textTurn('Researched: the finding holds.');
    if (agent === 'reviewer') {
      if (priorTurns(request) === 0) {
        const part = /part (\w+)/.exec(request.lastMessageText)?.[1] ?? 'x';
        return mock.toolCallTurn([
          {
            name: 'Agent',
            input: { subagent_type: 'researcher', description: `Check part ${part}`, prompt: `Check the finding of part ${part}.` },
          },
        ]);
      }
      return mock.textTurn('Finding confirmed by the researcher.');
    }
    if (priorTurns(request) === 0) {
      return mock.toolCallTurn(
        ['one', 'two'].map((part) => ({
          name: 'Agent',
          input: { subagent_type: 'reviewer', description: `Review part ${part}`, prompt: `Review part ${part} of src/parser.ts.` },
        })),
      );
    }
    return mock.textTurn('Both parts reviewed and researched.');
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, task);
  await taskRow(frame, 'coordinator', task, 'completed').waitFor();

  const all = await readRows(frame);
  const byLabel = all.map((row) => [row.level, row.label]).sort((a, b) => String(a[1]).localeCompare(String(b[1])));
  assertEqual(
    byLabel,
    [
      [1, `coordinator: ${task} \u2014 completed`],
      [3, 'researcher: Check part one \u2014 completed'],
      [3, 'researcher: Check part two \u2014 completed'],
      [2, 'reviewer: Review part one \u2014 completed'],
      [2, 'reviewer: Review part two \u2014 completed'],
    ],
    'the nested tree once everything completed',
  );
  const detail = frame.locator('.detail');
  await taskRow(frame, 'coordinator', task, 'completed').click();
  await detail.locator('.detail-result', { hasText: 'Both parts reviewed and researched.' }).waitFor();
}
