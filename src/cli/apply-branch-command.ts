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
import {
  applyToBranch,
  branchFilesOf,
  type ChecksVerdictDetail,
  errorMessage,
  neutralProgramRunner,
  type NeutralRunner,
  openPullRequest,
  type RunDescription,
  type RunLog,
  subjectOf,
  verdictMarkdown,
} from '../engine/index.js';
import { printBranchResult, printPullRequest } from './apply-branch-output.js';
import { completedProposals } from './completed-proposals.js';
import type { ApplyArguments } from './argument-types.js';
import { exitCodes } from './exit-codes.js';
import { historyTraceMarkdown } from './history-trace.js';
import type { HistoryRun } from './history-run.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';

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
