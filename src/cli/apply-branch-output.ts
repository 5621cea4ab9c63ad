/** How `agent-team apply --branch` reports on a terminal: the branch made (or why not), files held back, the pull request or how to open it. */
import type { ApplyToBranchResult, HeldBackFile, PullRequestResult } from '../engine/index.js';
import { exitCodes } from './exit-codes.js';

/** Says what came of the branch; returns the exit code it means. */
export function printBranchResult(result: ApplyToBranchResult, say: (text: string) => void): number {
  switch (result.outcome) {
    case 'refused':
      say(`agent-team: ${result.message}`);
      return exitCodes.usage;
    case 'conflict':
      for (const conflict of result.conflicts) say(`conflict: ${conflict.message}`);
      say(
        'No branch was made: the proposals conflict with HEAD. Update them (run the task again on the current code), or apply them to the working tree and merge by hand.',
      );
      return exitCodes.failed;
    case 'nothing-to-commit':
      printHeldBack(result.heldBack, say);
      say(result.message);
      return exitCodes.failed;
    case 'failed':
      say(result.message);
      return exitCodes.failed;
    case 'committed':
      printHeldBack(result.heldBack, say);
      say(`Made branch ${result.branch} (commit ${result.commit.slice(0, 12)}) with: ${result.committed.join(', ')}.`);
      if (result.unchanged.length > 0) say(`Already at HEAD as proposed, so not in the commit: ${result.unchanged.join(', ')}.`);
      for (const note of result.notes) say(note);
      return exitCodes.completed;
  }
}

/**
 * Files held back for approval, in the working-tree apply's words (`needs-approval: <path> — …`), then how
 * to approve one: the CLI approves nothing on its own, so the way is a review in VS Code or the user's own
 * commit after reading the change.
 */
function printHeldBack(heldBack: readonly HeldBackFile[], say: (text: string) => void): void {
  if (heldBack.length === 0) return;
  for (const file of heldBack) say(`needs-approval: ${file.path} — ${file.message}`);
  say(
    `Not in the branch: ${heldBack.map((file) => file.path).join(', ')}. To include one, read its change (agent-team run's output, or its --trace) and commit it on the branch yourself; in VS Code, Apply to Branch… asks you about each such file.`,
  );
}

export function printPullRequest(result: PullRequestResult, repositoryRoot: string, say: (text: string) => void): void {
  if (result.outcome === 'created') return say(`Pull request: ${result.url}`);
  if (result.outcome === 'manual' && result.noRemote) {
    say(
      `The branch is only in this repository (it has no remote, so nothing was pushed). To look at it or merge it, run in ${repositoryRoot}:`,
    );
    for (const command of result.commands) say(`  ${command}`);
    return say(
      'To open a pull request, add the remote first (git remote add <name> <url>), then push the branch to it and run gh pr create.',
    );
  }
  say(
    result.outcome === 'manual'
      ? `To open a pull request (not done here: ${result.reason}), run in ${repositoryRoot}:`
      : `${result.message}\nTo open the pull request, run in ${repositoryRoot}:`,
  );
  for (const command of result.commands) say(`  ${command}`);
}
