// Journey 17: a refactorer proposes an edit and wants to run a check; the row waits; the user allows the
// command once from the detail view, which says it runs in the OS sandbox; it runs in a scratch copy with
// the proposal applied, its output is in the transcript, and the file in the folder is unchanged.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { priorTurns } from '../lib/mock-provider.mjs';
import { assert } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'approve';
export const title =
  'Allow an agent’s command from the sidebar: it runs on the proposal in a scratch copy and its output shows in the transcript';

const files = {
  'greeting.txt': 'hello\n',
  'check.js': "console.log('check sees: ' + require('fs').readFileSync('greeting.txt', 'utf8').trim());\n",
};

export async function run({ open, mock, screenshot }) {
  const session = await open({ files });
  const { page, server, workspaceDir } = session;
  server.respondWith((request) => {
    const turn = priorTurns(request);
    if (turn === 0)
      return mock.toolCallTurn([{ name: 'Edit', input: { file_path: 'greeting.txt', old_string: 'hello', new_string: 'hello, world' } }]);
    if (turn === 1) return mock.toolCallTurn([{ name: 'Bash', input: { command: 'node check.js', description: 'Check the greeting' } }]);
    return mock.textTurn('Proposed the greeting and checked it.');
  });

  const frame = await openSidebar(page);
  await delegateFromPalette(page, 'Greet the world', { role: 'refactorer' });
  const waiting = taskRow(frame, 'refactorer', 'Greet the world', 'waiting');
  await waiting.waitFor();
  await waiting.click();
  const detail = frame.locator('.detail');
  const approval = detail.getByRole('region', { name: 'Command approval' });
  await approval.locator('.approval-command', { hasText: 'node check.js' }).waitFor();
  await approval.locator('.approval-purpose', { hasText: 'For: Check the greeting' }).waitFor();
  // It says how the command would run: in the OS sandbox of this machine, without network.
  await approval.locator('.approval-isolation', { hasText: 'In the OS sandbox (bubblewrap), without network' }).waitFor();
  await screenshot('command-approval', page);
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await taskRow(frame, 'refactorer', 'Greet the world', 'completed').waitFor();
  const bashCall = detail.locator('details.tool-call', { has: frame.locator('.tool-name', { hasText: 'Bash' }) });
  await bashCall.locator('summary').click();
  await bashCall.locator('.tool-output', { hasText: 'check sees: hello, world' }).waitFor();
  const onDisk = await readFile(path.join(workspaceDir, 'greeting.txt'), 'utf8');
  assert(onDisk === 'hello\n', `the folder's file is unchanged: ${JSON.stringify(onDisk)}`);
}
