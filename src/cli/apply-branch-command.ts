/**
 * `agent-team apply <runId> --branch <name>`: the run's proposals (the same checks as `--apply`: a
 * completed run, its completed tasks') committed on a new branch through a worktree of its own
 * (src/engine/git), the user's checkout left alone; then, with `gh` signed in, pushed and opened as a
 * pull request with the run's trace as its body, or else the exact commands to do it by hand.
 * The rules of `apply` hold: a file that needs explicit approval is held back and listed as apply lists
 * it, and git runs none of the repository's programs (hooks, fsmonitor, filters: src/engine/git).
 * Exit 2 for what the user must change first (not a repository, the name, no identity, a path the run's
 * file must not name), 1 when nothing or not everything was done (a conflict, a file held back, a push
 * that failed).
 */
import { applyToBranch, type ApplyToBranchResult } from '../engine/git/apply-to-branch.js';
import { branchFilesOf } from '../engine/git/branch-files.js';
import { subjectOf, type RunDescription } from '../engine/git/commit-message.js';
import type { HeldBackFile } from '../engine/git/branch-approvals.js';
import { type NeutralRunner, neutralProgramRunner } from '../engine/git/neutral-program-runner.js';
import { errorMessage } from '../engine/errors.js';
import { openPullRequest, type PullRequestResult } from '../engine/git/pull-request.js';
import type { RunLog } from '../engine/runs/run-log.js';
import { completedProposals } from './apply-changes.js';
import type { ApplyArguments } from './argument-types.js';
import { exitCodes } from './exit-codes.js';
import { historyTraceMarkdown } from './history-trace.js';
import type { HistoryRun } from './history-run.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';
import type { ChecksVerdictDetail } from '../engine/checks/types.js';
import { verdictMarkdown } from '../engine/checks/verdict-markdown.js';

type Output = { write(text: string): void };

export interface BranchContext {
  stdout: Output;
  stderr: Output;
  environment: NodeJS.ProcessEnv;
  runLog: RunLog;
  workspaceRoot: string;
  paths: ReadonlySet<string> | undefined;
  /** The run's kept checks verdict: its table opens the pull request's body. Default: none. */
  checks?: ChecksVerdictDetail;
}

export async function applyToBranchCommand(
  args: ApplyArguments & { branch: string },
  run: HistoryRun,
  context: BranchContext,
): Promise<number> {
  const report = args.json ? context.stderr : context.stdout;
  const say = (text: string) => report.write(`${terminalSafe(text)}\n`);
  const result = (value: Record<string, unknown>) =>
    args.json && context.stdout.write(`${terminalSafeJson({ runId: run.runId, branch: args.branch, ...value })}\n`);
  const completed = run.root
    ? completedProposals(run.root, run.changeSets, {
        interrupted: false,
        output: report,
        taskOf: (taskId) => run.tasks.get(taskId),
        wording: { label: `apply ${run.runId} --branch`, afterNote: ' No branch was made.' },
      })
    : undefined;
  if (!completed) {
    if (!run.root) say(`Run ${run.runId}'s root task is not in its file (a damaged line); no branch was made.`);
    result({ outcome: 'not-applied' });
    return exitCodes.failed;
  }
  const files = branchFilesOf(completed, context.paths);
  if (files.length === 0) {
    say(`Run ${run.runId} has no proposals of completed tasks to commit${context.paths ? ' among those files' : ''}; no branch was made.`);
    result({ outcome: 'nothing-to-commit' });
    return exitCodes.failed;
  }
  const description: RunDescription = {
    runId: run.runId,
    description: run.root?.description ?? run.runId,
    prompt: run.root?.prompt ?? '',
    agents: completed.map((changeSet) => ({
      taskId: changeSet.taskId,
      role: changeSet.role,
      description: run.tasks.get(changeSet.taskId)?.description ?? '',
    })),
  };
  let git: NeutralRunner;
  try {
    git = await neutralProgramRunner(context.workspaceRoot, { environment: context.environment });
  } catch (error) {
    say(`agent-team: ${errorMessage(error)} No branch was made.`);
    result({ outcome: 'refused', message: errorMessage(error) });
    return exitCodes.usage;
  }
  const applied = await applyToBranch({ workspace: context.workspaceRoot, branch: args.branch, files, run: description, git });
  const exitCode = printBranchResult(applied, say);
  const heldBack = 'heldBack' in applied ? { heldBack: applied.heldBack } : {};
  if (applied.outcome !== 'committed') {
    result({
      outcome: applied.outcome,
      ...('message' in applied ? { message: applied.message } : {}),
      ...('conflicts' in applied ? { conflicts: applied.conflicts } : {}),
      ...heldBack,
    });
    return exitCode;
  }
  const trace = await historyTraceMarkdown(context.runLog, run.contents, context.environment, (message) =>
    context.stderr.write(`agent-team: ${terminalSafe(message)}\n`),
  );
  const body = context.checks ? `${verdictMarkdown(context.checks)}\n${trace}` : trace;
  const pullRequest = await openPullRequest({
    repositoryRoot: applied.repositoryRoot,
    branch: applied.branch,
    title: subjectOf(description),
    body,
    runner: git.runner,
    gitReadsEnvironment: git.config.readsEnvironment,
  });
  printPullRequest(pullRequest, applied.repositoryRoot, say);
  result({
    outcome: 'committed',
    commit: applied.commit,
    committed: applied.committed,
    unchanged: applied.unchanged,
    ...heldBack,
    notes: applied.notes,
    pullRequest,
  });
  // Something the run proposed is not in the branch: as `apply` does for the working tree, exit 1.
  if (applied.heldBack.length > 0) return exitCodes.failed;
  return pullRequest.outcome === 'failed' ? exitCodes.failed : exitCodes.completed;
}

function printBranchResult(result: ApplyToBranchResult, say: (text: string) => void): number {
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

function printPullRequest(result: PullRequestResult, repositoryRoot: string, say: (text: string) => void): void {
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
