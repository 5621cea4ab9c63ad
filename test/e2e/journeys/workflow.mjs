// Journey 8: run a workflow from the palette and watch its steps in the tree. The workflow file is in
// the workspace; Run Workflow… offers it, asks for the input, and each step appears under the workflow's
// row as it starts: the researcher completes, the reviewer runs (held by the mock), then completes.
import { agentOf } from '../lib/mock-provider.mjs';
import { assertEqual, deferred } from '../lib/wait.mjs';
import { openSidebar, readRows, runFromPalette, taskRow } from '../lib/workbench.mjs';

export const name = 'workflow';
export const title = 'Run Workflow from the palette: each step appears in the tree under the workflow and completes';

const workflow = `description: Find where something is handled, then review it.
type: sequential
steps:
  - agent: researcher
    prompt: "Find where {input} is handled."
    output_key: findings
    description: Find the handler
  - agent: reviewer
    prompt: "Review this: {findings}"
    description: Review the handler
`;

export async function run({ open, mock }) {
  const session = await open({ files: { '.agent-team/workflows/find-and-review.yaml': workflow } });
  const { page, server } = session;
  const releaseReviewer = deferred();
  server.respondWith((request) => {
    const agent = agentOf(request);
    if (agent === 'researcher') return mock.textTurn('Dates are handled in src/parser.ts:7.');
    if (agent === 'reviewer') {
      return request.lastMessageText.includes('Review this: Dates are handled in src/parser.ts:7.')
        ? mock.delayed(mock.textTurn('The handler is fine.'), releaseReviewer.promise)
        : mock.textTurn(`The reviewer did not get the findings: ${request.lastMessageText.slice(0, 120)}`);
    }
    throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
  });

  const frame = await openSidebar(page);
  await runFromPalette(page, 'Agent Team: Run Workflow…', {
    pick: 'find-and-review',
    inputTitle: /^Run Workflow: find-and-review$/,
    text: 'date parsing',
  });

  await taskRow(frame, 'workflow', 'find-and-review', 'running').waitFor();
  await taskRow(frame, 'researcher', 'Find the handler', 'completed').waitFor();
  await taskRow(frame, 'reviewer', 'Review the handler', 'running').waitFor();
  releaseReviewer.resolve();
  await taskRow(frame, 'workflow', 'find-and-review', 'completed').waitFor();
  const all = await readRows(frame);
  assertEqual(
    all.map((row) => [row.level, row.label]),
    [
      [1, 'workflow: find-and-review \u2014 completed'],
      [2, 'researcher: Find the handler \u2014 completed'],
      [2, 'reviewer: Review the handler \u2014 completed'],
    ],
    'the workflow tree once every step completed',
  );
  await taskRow(frame, 'workflow', 'find-and-review', 'completed').click();
  await frame.locator('.detail .detail-result', { hasText: 'The handler is fine.' }).waitFor();
}
