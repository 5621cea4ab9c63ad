// Journey: Apply to Branch. In a git repository with a dirty working tree, a refactorer's run proposes a
// change; Agent Team: Apply to Branch… (palette → the run → the branch name) commits exactly that change
// on a new branch through a worktree of its own: the user's checkout, index, HEAD and dirty file are as
// they were, and without `gh` the notification says the commands are in the output.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assertEqual } from '../lib/wait.mjs';
import { delegateFromPalette, openSidebar, quickInput, taskRow } from '../lib/workbench.mjs';
import { runCommand } from '../tooling/browser.mjs';

export const name = 'branch';
export const title = 'Apply to Branch: a run’s proposal committed on a new branch; the checkout, index, HEAD and a dirty file untouched';

const task = 'Rename the parser';
const branch = 'agent-team/e2e-rename';

export async function run({ open, mock, log }) {
  const session = await open({ files: { 'src/steps.ts': 'export const parse = 1;\n', 'notes.txt': 'mine\n' } });
  const { page, server, workspaceDir } = session;
  const git = (...args) =>
    execFileSync('git', args, { cwd: workspaceDir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'E2E User');
  git('config', 'user.email', 'e2e@example.com');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
  // Uncommitted work of the user's own: it must stay out of the branch, and stay where it is.
  const dirty = 'mine, not committed\n';
  execFileSync('sh', ['-c', `printf '%s' "$1" > notes.txt`, 'sh', dirty], { cwd: workspaceDir });
  const before = {
    head: git('rev-parse', 'HEAD'),
    branch: git('rev-parse', '--abbrev-ref', 'HEAD'),
    status: git('status', '--porcelain'),
    staged: git('diff', '--cached'),
  };

  server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
    if (priorTurns(request) === 0)
      return mock.toolCallTurn([
        {
          name: 'Edit',
          input: { file_path: 'src/steps.ts', old_string: 'export const parse = 1;', new_string: 'export const parseStep = 1;' },
        },
      ]);
    return mock.textTurn('Renamed parse to parseStep.');
  });
  const frame = await openSidebar(page);
  await delegateFromPalette(page, task, { role: 'refactorer' });
  await taskRow(frame, 'refactorer', task, 'completed').waitFor();

  await runCommand(page, 'Agent Team: Apply to Branch…');
  const quick = quickInput(page);
  // The one finished run with proposals, then the branch name.
  await quick.rows.first().waitFor();
  await page.keyboard.press('Enter');
  await quick.title.filter({ hasText: 'Apply to Branch' }).waitFor();
  await quick.input.fill(branch);
  await page.keyboard.press('Enter');
  await page.locator('.notification-toast', { hasText: `Made branch ${branch}` }).waitFor({ timeout: 60_000 });
  log(`made ${branch}`);

  assertEqual(git('diff', '--name-only', `main..${branch}`), 'src/steps.ts', 'the branch has exactly the proposed file');
  assertEqual(git('show', `${branch}:src/steps.ts`), 'export const parseStep = 1;', 'with the proposed content');
  assertEqual(
    {
      head: git('rev-parse', 'HEAD'),
      branch: git('rev-parse', '--abbrev-ref', 'HEAD'),
      status: git('status', '--porcelain'),
      staged: git('diff', '--cached'),
    },
    before,
    'the checkout, index and HEAD as they were',
  );
  assertEqual(readFileSync(join(workspaceDir, 'notes.txt'), 'utf8'), dirty, 'the user’s uncommitted file untouched');
  assertEqual(
    readFileSync(join(workspaceDir, 'src/steps.ts'), 'utf8'),
    'export const parse = 1;\n',
    'the proposal not written to the working tree',
  );
  assertEqual(git('worktree', 'list').split('\n').length, 1, 'no worktree left behind (only the checkout itself)');
  log('the branch has the change; the checkout is untouched');
}
