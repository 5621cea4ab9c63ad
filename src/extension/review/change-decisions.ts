/**
 * Accepting and rejecting proposed changes in VS Code, per file and per hunk. The decisions themselves are
 * the engine's (changes/hunk-decisions.ts, shared with `agent-team apply --hunk` and the MCP server); this
 * adds what only the editor has: the modal questions, the restore point for Undo Accepted Changes, and a
 * conflict's "Review Rebased Change". A file that changed since the task read it gets the accepted hunks
 * merged onto it, as `--apply` does; where a line was changed by both, nothing is written. Decisions on one
 * file run one after another, so a double click cannot apply twice.
 */
import * as vscode from 'vscode';
import {
  type AcceptCheckpoint,
  acceptHunks,
  applyChangeSet,
  type ApplyOutcome,
  type ChangeSet,
  type ChangeSetRegistry,
  type FileApplyResult,
  type FileChangeSnapshot,
  KeyedQueue,
  rejectHunks,
  requirePendingHunks,
  type Workspace,
  WorkspaceError,
} from '../../engine/index.js';
import { showError, showWarning } from '../notify.js';
import { type AcceptRestorePoints, acceptCheckpoint, recordAccept } from './accept-restore-points.js';
import { approveSensitive, markersConfirmed } from './decision-prompts.js';

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
  private readonly queue = new KeyedQueue();

  constructor(private readonly options: ChangeDecisionsOptions) {}

  /** Accepts every hunk of the file and writes it. */
  acceptFile(taskId: string, path: string): Promise<DecisionOutcome> {
    return this.locked(taskId, path, async (): Promise<DecisionOutcome> => {
      const { changeSet, file } = this.require(taskId, path);
      if (file.status === 'applied') return 'skipped';
      if (!(await approveSensitive(file)) || !(await markersConfirmed(file))) return 'cancelled';
      changeSet.accept({ path });
      return this.written(changeSet, path, (workspace, checkpoint) =>
        applyChangeSet(changeSet, workspace, { paths: [path], approvedSensitive: [path], ...(checkpoint ? { checkpoint } : {}) }).then(
          (report) => report.files[0],
        ),
      );
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

  /** Accepts one hunk and writes it now; the rest of the file's proposal stays up for review, rebased onto what was written. */
  acceptHunk(taskId: string, path: string, hunkId: string): Promise<DecisionOutcome> {
    return this.locked(taskId, path, async () => {
      const { changeSet, file } = this.require(taskId, path);
      requirePendingHunks(changeSet, path, [hunkId]);
      if (!(await approveSensitive(file))) return 'cancelled';
      return this.written(changeSet, path, (workspace, checkpoint) =>
        acceptHunks(changeSet, path, [hunkId], workspace, { approvedSensitive: true, ...(checkpoint ? { checkpoint } : {}) }),
      );
    });
  }

  /** Rejects one hunk; the proposal is rebuilt without it while other hunks still wait. */
  rejectHunk(taskId: string, path: string, hunkId: string): Promise<DecisionOutcome> {
    return this.locked(taskId, path, async (): Promise<DecisionOutcome> => {
      const { changeSet } = this.require(taskId, path);
      rejectHunks(changeSet, path, [hunkId]);
      this.options.log.info(`Rejected one proposed change to ${path} (task ${taskId}).`);
      return 'rejected';
    });
  }

  /** Runs one write with its restore point, then tells the user what came of it. */
  private async written(
    changeSet: ChangeSet,
    path: string,
    write: (workspace: Workspace, checkpoint: AcceptCheckpoint | undefined) => Promise<FileApplyResult | undefined>,
  ): Promise<DecisionOutcome> {
    const workspace = await this.options.workspace();
    const checkpoint = acceptCheckpoint(this.options.restorePoints, workspace);
    const result = await write(workspace, checkpoint);
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

  private locked<Result>(taskId: string, path: string, run: () => Promise<Result>): Promise<Result> {
    return this.queue.run(`${taskId}\0${path}`, run);
  }
}
