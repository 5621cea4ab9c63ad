/**
 * Apply to Branch…: a finished run's proposals committed on a new branch (src/engine/git: a worktree of
 * its own, so the user's checkout, index and current branch stay as they are), then pushed and opened as
 * a pull request when `gh` is signed in, or the commands to do it by hand in the output.
 *
 * Which proposals: those of the run's tasks that completed (a failed or stopped task's may be half a
 * change), and of those the hunks the user did not reject: what was accepted (already in the working
 * tree, or not) and what was not reviewed yet. A run that did not complete commits nothing, as the CLI's
 * `apply` and `--apply` refuse it. A file that needs explicit approval (a hook, a workflow, editor
 * settings, a manifest's scripts) is committed only after the same per-file question as the working-tree
 * Apply asks; git runs none of the repository's programs (src/engine/git/neutral-git-config.ts).
 */
import * as vscode from 'vscode';
import {
  type ApplyToBranchResult,
  branchFilesOf,
  branchNameRuleProblem,
  buildRunTrace,
  type ChangeSet,
  applyToBranch as commitToBranch,
  errorMessage,
  type HeldBackFile,
  neutralProgramRunner,
  type NeutralRunner,
  openPullRequest,
  renderTraceMarkdown,
  type RunDescription,
  subjectOf,
  type TaskSnapshot,
  verdictMarkdown,
} from '../../engine/index.js';
import type { AgentTeamHost } from '../host.js';
import { confirmModal, showError, showInfo, showWarning } from '../notify.js';
import { sensitiveChangeDetail } from '../review/decision-prompts.js';
import { pickTask } from './task-picker.js';

export async function applyToBranch(host: AgentTeamHost, runArgument?: unknown): Promise<ApplyToBranchResult | undefined> {
  await host.historyLoaded;
  const folder = host.folder();
  if (!folder) {
    showWarning(vscode.l10n.t('Open a folder in a git repository to apply a run to a branch.'));
    return undefined;
  }
  const runId = await chooseRun(host, runArgument);
  const root = runId === undefined ? undefined : host.taskManager.get(runId);
  if (!root) return undefined;
  if (root.status !== 'completed') {
    showWarning(
      vscode.l10n.t('Run {0} did not complete ({1}): its edits may be half done, so nothing is committed.', root.id, root.status),
    );
    return undefined;
  }
  const changeSets = completedChangeSets(host, root.id);
  const files = branchFilesOf(changeSets);
  if (files.length === 0) {
    showInfo(vscode.l10n.t('Run {0} has no proposals of completed tasks to commit.', root.id));
    return undefined;
  }
  if (!(await host.ownRunOrConfirmed(root.id, 'apply'))) return undefined;
  const cwd = folder.uri.fsPath;
  const branch = await vscode.window.showInputBox({
    title: vscode.l10n.t('Apply to Branch'),
    prompt: vscode.l10n.t(
      'The new branch for the proposals of run {0} (made from the commit you are on; your checkout is not changed)',
      root.id,
    ),
    value: defaultBranchName(root),
    validateInput: (value) => branchNameRuleProblem(value) ?? null,
  });
  if (branch === undefined) return undefined;
  const description = describeRun(host, root, changeSets);
  let git: NeutralRunner;
  try {
    // The extension host's own environment: the one the user's git would see.
    git = await neutralProgramRunner(cwd, { environment: process.env });
  } catch (error) {
    showError(vscode.l10n.t('No branch was made: {0}', errorMessage(error)));
    return undefined;
  }
  // As the working-tree Apply does: each file that needs explicit approval is asked about on its own.
  const approve = (file: HeldBackFile) =>
    confirmModal(
      vscode.l10n.t('Commit the proposed change to {0} on {1}?', file.path, branch),
      vscode.l10n.t('Commit'),
      `${sensitiveChangeDetail(file.path)} (${file.reason})`,
    );
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Making branch {0}…', branch) },
    () => commitToBranch({ workspace: cwd, branch, files, run: description, git, approve }),
  );
  const runner = git.runner;
  if (result.outcome !== 'committed') {
    reportNotCommitted(host, result, branch);
    return result;
  }
  host.log.info(
    `Made branch ${result.branch} (commit ${result.commit}) from run ${root.id} with ${result.committed.join(', ')}. ${result.notes.join(' ')}`,
  );
  for (const file of result.heldBack) host.log.warn(`Apply to Branch ${result.branch}: not committed: ${file.message}`);
  if (result.heldBack.length > 0)
    showWarning(vscode.l10n.t('Not in branch {0} (not approved): {1}', result.branch, result.heldBack.map((file) => file.path).join(', ')));
  // The checks' verdict opens the body: what the pull request's reviewer should know first.
  const checks = host.checks.verdict(root.id);
  const trace = renderTraceMarkdown(await buildRunTrace(host.taskManager, host.changes, root.id));
  const body = host.redactor.redact(checks ? `${verdictMarkdown(checks.run, { stale: checks.stale })}\n${trace}` : trace);
  const pullRequest = await openPullRequest({
    repositoryRoot: result.repositoryRoot,
    branch: result.branch,
    title: subjectOf(description),
    body,
    runner,
    gitReadsEnvironment: git.config.readsEnvironment,
  });
  if (pullRequest.outcome === 'created') {
    host.log.info(`Opened a pull request for ${result.branch}: ${pullRequest.url}`);
    showInfo(vscode.l10n.t('Made branch {0} and opened a pull request: {1}', result.branch, pullRequest.url), {
      title: vscode.l10n.t('Open Pull Request'),
      run: () => vscode.env.openExternal(vscode.Uri.parse(pullRequest.url)),
    });
    return result;
  }
  if (pullRequest.outcome === 'manual' && pullRequest.noRemote) {
    host.log.info(
      `Branch ${result.branch} is only in ${result.repositoryRoot} (no remote). To look at it or merge it, run there:\n${pullRequest.commands.map((command) => `  ${command}`).join('\n')}\nTo open a pull request, add a remote (git remote add <name> <url>) and push the branch to it.`,
    );
    showInfo(
      vscode.l10n.t(
        'Made branch {0}. The repository has no remote, so nothing was pushed: add one (git remote add) to open a pull request.',
        result.branch,
      ),
      { title: vscode.l10n.t('Show Output'), run: () => host.log.show() },
    );
    return result;
  }
  const why = pullRequest.outcome === 'manual' ? pullRequest.reason : pullRequest.message;
  host.log.info(
    `To open a pull request for ${result.branch} (${why}), run in ${result.repositoryRoot}:\n${pullRequest.commands.map((command) => `  ${command}`).join('\n')}`,
  );
  showInfo(
    vscode.l10n.t('Made branch {0}. No pull request was opened ({1}): the commands to open one are in the output.', result.branch, why),
    { title: vscode.l10n.t('Show Output'), run: () => host.log.show() },
  );
  return result;
}

/** The run given (a subagent's id names its run), or one picked from the finished runs with proposals to commit. */
async function chooseRun(host: AgentTeamHost, runArgument: unknown): Promise<string | undefined> {
  if (typeof runArgument === 'string' && runArgument !== '') return host.taskManager.get(runArgument)?.rootId ?? runArgument;
  const candidates = host.taskManager
    .list()
    .filter(
      (task) => task.parentId === null && task.status === 'completed' && branchFilesOf(completedChangeSets(host, task.id)).length > 0,
    );
  if (candidates.length === 0) {
    showInfo(vscode.l10n.t('No finished run has proposals to commit.'));
    return undefined;
  }
  return pickTask(candidates, { title: vscode.l10n.t('Apply to Branch'), placeHolder: vscode.l10n.t('Which run’s proposals?') });
}

function completedChangeSets(host: AgentTeamHost, runId: string): ChangeSet[] {
  return host.taskManager
    .treeOf(runId)
    .filter((task) => task.status === 'completed')
    .map((task) => host.changes.get(task.id))
    .filter((changeSet): changeSet is ChangeSet => changeSet !== undefined);
}

function describeRun(host: AgentTeamHost, root: TaskSnapshot, changeSets: readonly ChangeSet[]): RunDescription {
  const agents = changeSets.map((changeSet) => ({
    taskId: changeSet.taskId,
    role: changeSet.role,
    description: host.taskManager.get(changeSet.taskId)?.description ?? '',
  }));
  return { runId: root.id, description: root.description, prompt: root.prompt, agents };
}

/** `agent-team/<runId>-<a few words of the description>`. */
export function defaultBranchName(root: TaskSnapshot): string {
  const slug = root.description
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `agent-team/${root.id}${slug ? `-${slug}` : ''}`;
}

function reportNotCommitted(host: AgentTeamHost, result: Exclude<ApplyToBranchResult, { outcome: 'committed' }>, branch: string): void {
  if (result.outcome === 'conflict') {
    for (const conflict of result.conflicts) host.log.warn(`Apply to Branch ${branch}: ${conflict.message}`);
    showWarning(
      vscode.l10n.t(
        'No branch was made: {0} conflict with the commit you are on (details in the output).',
        result.conflicts.map((conflict) => conflict.path).join(', '),
      ),
      { title: vscode.l10n.t('Show Output'), run: () => host.log.show() },
    );
    return;
  }
  if (result.outcome === 'nothing-to-commit')
    for (const file of result.heldBack) host.log.warn(`Apply to Branch ${branch}: not committed: ${file.message}`);
  host.log.warn(`Apply to Branch ${branch}: ${result.message}`);
  if (result.outcome === 'refused') showError(result.message);
  else showWarning(result.message);
}
