/**
 * Review Changes, and accepting or rejecting a proposed file or hunk. The target comes from the
 * arguments — `(taskId, path[, hunkId])`, `({ taskId, path, hunkId? })`, or a proposal URI (what the
 * editor title bar passes) — or else from the active diff editor.
 */
import * as vscode from 'vscode';
import { pendingFiles } from '../change-summaries.js';
import type { AgentTeamHost } from '../host.js';
import { showInfo } from '../notify.js';
import type { DecisionOutcome } from '../review/change-decisions.js';
import { parseProposalUri } from '../review/proposal-uri.js';
import { pickTask } from './task-picker.js';

export interface ReviewTarget {
  taskId: string;
  path: string;
  hunkId?: string;
}

/** Reads a target from command arguments; undefined when they name none. */
export function targetFromArguments(args: readonly unknown[]): ReviewTarget | undefined {
  const [first, second, third] = args;
  if (first instanceof vscode.Uri) {
    const address = parseProposalUri(first);
    if (!address) return undefined;
    return { taskId: address.taskId, path: address.path, ...(typeof second === 'string' ? { hunkId: second } : {}) };
  }
  if (typeof first === 'string' && typeof second === 'string') {
    return { taskId: first, path: second, ...(typeof third === 'string' ? { hunkId: third } : {}) };
  }
  if (typeof first === 'object' && first !== null) {
    const { taskId, path, hunkId } = first as Partial<Record<keyof ReviewTarget, unknown>>;
    if (typeof taskId === 'string' && typeof path === 'string') return { taskId, path, ...(typeof hunkId === 'string' ? { hunkId } : {}) };
  }
  return undefined;
}

export async function reviewChanges(host: AgentTeamHost, taskId?: unknown): Promise<void> {
  await host.historyLoaded;
  let id = typeof taskId === 'string' && taskId !== '' ? taskId : host.review.activeProposal()?.taskId;
  if (id === undefined) {
    const withChanges = host.taskManager.list().filter((task) => {
      const changeSet = host.changes.get(task.id);
      return changeSet !== undefined && pendingFiles(changeSet).length > 0;
    });
    if (withChanges.length === 0) {
      showInfo(vscode.l10n.t('No proposed changes are waiting for review.'));
      return;
    }
    id =
      withChanges.length === 1
        ? withChanges[0].id
        : await pickTask(withChanges, {
            title: vscode.l10n.t('Review Changes'),
            placeHolder: vscode.l10n.t('Pick the task whose proposed changes to review'),
            describe: (task) => {
              const files = pendingFiles(host.changes.get(task.id)!);
              return `${files.length} file${files.length === 1 ? '' : 's'} +${files.reduce((sum, file) => sum + file.added, 0)} \u2212${files.reduce((sum, file) => sum + file.removed, 0)}`;
            },
          });
    if (id === undefined) return;
  }
  await host.review.review(id);
}

export async function decideFile(
  host: AgentTeamHost,
  decision: 'accept' | 'reject',
  args: readonly unknown[],
): Promise<DecisionOutcome | undefined> {
  const hint = vscode.l10n.t('Open a proposed change first ("Agent Team: Review Changes"), then {0} it.', decision);
  const target = await decisionTarget(host, args, hint);
  return target && host.review.decideFile(decision, target.taskId, target.path);
}

export async function decideHunk(
  host: AgentTeamHost,
  decision: 'accept' | 'reject',
  args: readonly unknown[],
): Promise<DecisionOutcome | undefined> {
  const hint = vscode.l10n.t('Open a proposed change first ("Agent Team: Review Changes"), then {0} its parts.', decision);
  const target = await decisionTarget(host, args, hint);
  return target && host.review.decideHunk(decision, target.taskId, target.path, target.hunkId);
}

/** What a decision is about: the arguments' target, else the proposal in front; none (after `hint`) when neither. */
async function decisionTarget(host: AgentTeamHost, args: readonly unknown[], hint: string): Promise<ReviewTarget | undefined> {
  await host.historyLoaded;
  const target = targetFromArguments(args) ?? host.review.activeProposal();
  if (!target) showInfo(hint);
  return target;
}

/** Accept All / Reject All: the task given, else the review in front. */
export async function decideAll(host: AgentTeamHost, decision: 'accept' | 'reject', taskId?: unknown): Promise<number> {
  await host.historyLoaded;
  return host.review.decideAll(decision, typeof taskId === 'string' && taskId !== '' ? taskId : undefined);
}
