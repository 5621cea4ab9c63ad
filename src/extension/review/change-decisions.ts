/**
 * Accepting and rejecting proposed changes, per file and per hunk. Accepting writes at once through the
 * host `Workspace` (a `WorkspaceEdit`, so Undo works), conflict-checked by the change-set module: a file
 * that changed since the task read it (another task's change accepted first, say) gets the accepted
 * hunks merged onto it, as `--apply` does; where a line was changed by both, nothing is written and the
 * file with both sides between conflict markers is offered for review in the diff editor. Decisions on one file run one after another, so a double click cannot apply
 * twice.
 */
import * as vscode from 'vscode';
import {
  applyChangeSet,
  type ApplyOutcome,
  type ChangeSet,
  type ChangeSetRegistry,
  type FileChangeSnapshot,
} from '../../engine/changes/index.js';
import { applyHunks } from '../../engine/changes/hunks.js';
import { hasConflictMarkers } from '../../engine/changes/three-way.js';
import { WorkspaceError } from '../../engine/errors.js';
import type { Workspace } from '../../engine/workspace/index.js';
import { confirmModal, showError, showWarning } from '../notify.js';
import { type AcceptRestorePoints, acceptCheckpoint, recordAccept } from './accept-restore-points.js';

export type DecisionOutcome = ApplyOutcome | 'rejected' | 'cancelled';

export interface ChangeDecisionsOptions {
  changes: ChangeSetRegistry;
  /** The host workspace (built on first use). */
  workspace: () => Promise<Workspace>;
  /** Opens the diff again (after a rebase). */
  openDiff: (taskId: string, path: string) => Promise<void>;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  /** Where each accept's restore point is kept (Undo Accepted Changes). Default: none kept. */
  restorePoints?: AcceptRestorePoints;
}

export class ChangeDecisions {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ChangeDecisionsOptions) {}

  /** Accepts every hunk of the file and writes it. */
  acceptFile(taskId: string, path: string): Promise<DecisionOutcome> {
    return this.locked(taskId, path, async (): Promise<DecisionOutcome> => {
      const { changeSet, file } = this.require(taskId, path);
      if (file.status === 'applied') return 'skipped';
      if (!(await this.approve(file))) return 'cancelled';
      if (!(await this.markersConfirmed(file))) return 'cancelled';
      changeSet.accept({ path });
      return this.apply(changeSet, path);
    });
  }

  /** Rejects every hunk: the file is left as it is and shows as rejected. */
  rejectFile(taskId: string, path: string): Promise<DecisionOutcome> {
    return this.locked(taskId, path, async (): Promise<DecisionOutcome> => {
      const { changeSet, file } = this.require(taskId, path);
      if (file.status === 'applied') return 'skipped';
      changeSet.reject({ path });
      this.options.log.info(`Rejected the proposed change to ${path} (task ${taskId}).`);
      return 'rejected';
    });
  }

  /**
   * Accepts one hunk and writes it now; the rest of the file's proposal stays up for review, rebuilt on
   * top of what was written (rejected hunks stay out).
   */
  acceptHunk(taskId: string, path: string, hunkId: string): Promise<DecisionOutcome> {
    return this.locked(taskId, path, async () => {
      const { changeSet, file } = this.require(taskId, path);
      this.requireHunk(file, hunkId);
      if (!(await this.approve(file))) return 'cancelled';
      changeSet.accept({ path, hunkId });
      const fileChange = changeSet.fileChange(path);
      const remaining =
        fileChange.baseContent === null
          ? null
          : applyHunks(fileChange.baseContent, fileChange.hunks, (hunk) => fileChange.decisionOf(hunk) !== 'rejected');
      const stillPending = fileChange.hunks.some((hunk) => fileChange.decisionOf(hunk) === 'pending');
      const written = changeSet.resultContent(path);
      const outcome = await this.apply(changeSet, path);
      if (outcome === 'applied' && stillPending && remaining !== null && written !== null) {
        changeSet.rebase(path, { baseContent: written, proposedContent: remaining });
      }
      return outcome;
    });
  }

  /** Rejects one hunk; the proposal is rebuilt without it while other hunks still wait. */
  rejectHunk(taskId: string, path: string, hunkId: string): Promise<DecisionOutcome> {
    return this.locked(taskId, path, async (): Promise<DecisionOutcome> => {
      const { changeSet, file } = this.require(taskId, path);
      this.requireHunk(file, hunkId);
      changeSet.reject({ path, hunkId });
      this.options.log.info(`Rejected one proposed change to ${path} (task ${taskId}).`);
      const fileChange = changeSet.fileChange(path);
      const stillPending = fileChange.hunks.some((hunk) => fileChange.decisionOf(hunk) === 'pending');
      if (stillPending && fileChange.baseContent !== null) {
        const remaining = applyHunks(fileChange.baseContent, fileChange.hunks, (hunk) => fileChange.decisionOf(hunk) !== 'rejected');
        changeSet.rebase(path, { baseContent: fileChange.baseContent, proposedContent: remaining });
      }
      return 'rejected';
    });
  }

  private async apply(changeSet: ChangeSet, path: string): Promise<DecisionOutcome> {
    const workspace = await this.options.workspace();
    const checkpoint = acceptCheckpoint(this.options.restorePoints, workspace);
    const report = await applyChangeSet(changeSet, workspace, {
      paths: [path],
      approvedSensitive: [path],
      ...(checkpoint ? { checkpoint } : {}),
    });
    const result = report.files[0];
    if (!result) return 'failed';
    if (result.outcome === 'applied') {
      this.options.log.info(`Task ${changeSet.taskId}: ${result.message}`);
      await recordAccept(this.options.restorePoints, checkpoint, changeSet.taskId, (message) => this.options.log.warn(message));
      return 'applied';
    }
    // Not written: the decisions go back to pending so the file can be reviewed again.
    if (changeSet.file(path)?.status === 'pending') changeSet.decide('pending', { path });
    this.options.log.warn(`Task ${changeSet.taskId}: ${result.message}`);
    const rebase = result.rebase;
    if (result.outcome === 'conflict' && rebase) {
      showWarning(result.message, {
        title: vscode.l10n.t('Review Rebased Change'),
        run: async () => {
          changeSet.rebase(path, { baseContent: rebase.baseContent, proposedContent: rebase.proposedContent });
          await this.options.openDiff(changeSet.taskId, path);
        },
      });
    } else {
      showError(result.message);
    }
    return result.outcome;
  }

  /**
   * A proposal with conflict markers the base did not have (a conflict's marked file, not yet resolved in
   * the diff editor) is written only if the user says so: markers in a source file rarely are what they meant.
   */
  private async markersConfirmed(file: FileChangeSnapshot): Promise<boolean> {
    if (!hasConflictMarkers(file.proposedContent) || (file.baseContent !== null && hasConflictMarkers(file.baseContent))) return true;
    return confirmModal(
      vscode.l10n.t('{0} still has conflict markers. Apply it with them?', file.path),
      vscode.l10n.t('Apply with Markers'),
      vscode.l10n.t('Edit the proposed side in the diff editor to keep one side (or both) of each conflict, save it, then accept.'),
    );
  }

  /** Sensitive configuration is written only after the user says so, for this file, in a modal. */
  private async approve(file: FileChangeSnapshot): Promise<boolean> {
    if (!file.requiresApproval) return true;
    return confirmModal(
      vscode.l10n.t('Apply the proposed change to {0}?', file.path),
      vscode.l10n.t('Apply'),
      sensitiveChangeDetail(file.path, file.target),
    );
  }

  private require(taskId: string, path: string): { changeSet: ChangeSet; file: FileChangeSnapshot } {
    const changeSet = this.options.changes.get(taskId);
    const file = changeSet?.file(path);
    if (!changeSet || !file) {
      throw new WorkspaceError(
        'not-found',
        `Task ${taskId} has no proposed change to ${path}. Run "Agent Team: Review Changes" to see what is waiting for review.`,
        path,
      );
    }
    return { changeSet, file };
  }

  private requireHunk(file: FileChangeSnapshot, hunkId: string): void {
    const hunk = file.hunks.find((candidate) => candidate.id === hunkId);
    if (!hunk || hunk.decision !== 'pending' || file.status === 'applied') {
      throw new WorkspaceError(
        'invalid',
        `${file.path} has no pending change ${hunkId}; the proposal changed since it was shown. Review the current diff again.`,
        file.path,
      );
    }
  }

  private locked<Result>(taskId: string, path: string, run: () => Promise<Result>): Promise<Result> {
    const key = `${taskId}\0${path}`;
    const previous = this.locks.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(run);
    this.locks.set(key, next);
    void next
      .finally(() => {
        if (this.locks.get(key) === next) this.locks.delete(key);
      })
      .catch(() => undefined);
    return next;
  }
}

/** What the approval of a sensitive file says, whether it is applied here or committed on a branch. */
export function sensitiveChangeDetail(path: string, target?: string): string {
  return `${path}${target !== undefined ? ` (a symbolic link to ${target})` : ''} is configuration that can make VS Code, a task runner or CI run code, or change what agents may do. Apply it only if you have read the change.`;
}
