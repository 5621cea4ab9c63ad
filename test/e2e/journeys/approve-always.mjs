// Journey 19: "Always for this workspace" on a command with a glob allows that command and nothing the glob
// would have matched. The refactorer wants `rm -f *.log`; the user clicks Always in the detail view; the
// same command later runs without asking; `rm -f /tmp/…other.log` waits for the user again.
import { priorTurns } from '../lib/mock-provider.mjs';
import { delegateFromPalette, openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'approve-always';
export const title =
  '“Always for this workspace” on `rm -f *.log` allows exactly that command: the same runs without asking, another path asks again';

const files = { 'build.log': 'old\n', 'keep.txt': 'kept\n' };

export async function run({ open, mock }) {
  const session = await open({ files });
  const { page, server } = session;
  // The task's text names the command: "<why>: <command>".
  server.respondWith((request) => {
    if (priorTurns(request) > 0) return mock.textTurn('Done.');
    const command = request.lastMessageText.slice(request.lastMessageText.indexOf(': ') + 2);
    return mock.toolCallTurn([{ name: 'Bash', input: { command, description: 'Clean the logs' } }]);
  });

  const frame = await openSidebar(page);
  const detail = frame.locator('.detail');
  const approval = detail.getByRole('region', { name: 'Command approval' });

  await delegateFromPalette(page, 'Clean: rm -f *.log', { role: 'refactorer' });
  const first = taskRow(frame, 'refactorer', 'Clean: rm -f *.log', 'waiting');
  await first.waitFor();
  await first.click();
  await approval.locator('.approval-command', { hasText: 'rm -f *.log' }).waitFor();
  await approval.getByRole('button', { name: 'Always for this workspace' }).click();
  await taskRow(frame, 'refactorer', 'Clean: rm -f *.log', 'completed').waitFor();

  // The same command: allowed always, it runs without waiting for anyone.
  await delegateFromPalette(page, 'Clean again: rm -f *.log', { role: 'refactorer' });
  await taskRow(frame, 'refactorer', 'Clean again: rm -f *.log', 'completed').waitFor();

  // Another path the glob would have matched as a pattern: it asks again.
  await delegateFromPalette(page, 'Clean elsewhere: rm -f /tmp/agent-team-e2e-other.log', { role: 'refactorer' });
  const other = taskRow(frame, 'refactorer', 'Clean elsewhere: rm -f /tmp/agent-team-e2e-other.log', 'waiting');
  await other.waitFor();
  await other.click();
  await approval.locator('.approval-command', { hasText: 'rm -f /tmp/agent-team-e2e-other.log' }).waitFor();
  await approval.getByRole('button', { name: 'Deny' }).click();
  await taskRow(frame, 'refactorer', 'Clean elsewhere: rm -f /tmp/agent-team-e2e-other.log', 'completed').waitFor();
}
