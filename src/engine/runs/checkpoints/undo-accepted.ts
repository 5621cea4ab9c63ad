/**
 * Undo Accepted Changes (`agent-team undo`, the command `agentTeam.undoAccepted`): puts back what a run's
 * accepts wrote (undo-plan.ts says which files and which content), all or nothing. Every file is checked
 * before any is written:
 * - the disk must still hold what the last accept (or undo) left; a file changed since (edited by hand,
 *   by another tool) is refused, named, unless `force`;
 * - the path must stay inside the workspace and lead to a regular file (a run log names it, and a log can
 *   be planted or edited), the content to write back must have been kept (not over the size kept), and
 *   the content now must be small enough to keep: these are refused even with `force`.
 * When anything is refused without `force`, nothing is written. What is written is recorded as a restore
 * point of its own (kind `undo` or `redo`), holding the content the disk had before it: undoing again
 * takes the undo back, forced overwrites included, so nothing an undo writes over is lost.
 */
import { errorMessage } from '../../errors.js';
import { UndoRecorder } from './undo-recorder.js';
import type { RestorePointSink } from './accept-checkpoint.js';
import type { RestorePoint } from './restore-point.js';
import { contentBytes, sameDigest } from './stored-content.js';
import { type PlannedRestore, planUndo } from './undo-plan.js';
import type { FileBytes, WorkspaceBytes } from './workspace-bytes.js';

export interface UndoRequest {
  runId: string;
  points: readonly RestorePoint[];
  /** Only these files. Default: every file of the run's points. */
  paths?: ReadonlySet<string>;
  /** Write over files changed on disk since. Default false. */
  force?: boolean;
  /** The new point's time. Default: `Date.now`. */
  now?: () => number;
}

export interface UndoFileOutcome {
  path: string;
  /** `restored`: content put back; `deleted`: a file the accept created; `created`: a file it deleted (or an undo did). */
  action: 'restored' | 'deleted' | 'created';
  /** Written over a change made since (`force`). */
  forced: boolean;
}

export type UndoOutcome =
  | { status: 'nothing'; why: string }
  | { status: 'refused'; direction: 'undo' | 'redo'; refused: Array<{ path: string; reason: string; forceable: boolean }> }
  | {
      status: 'done';
      direction: 'undo' | 'redo';
      files: UndoFileOutcome[];
      refused: Array<{ path: string; reason: string }>;
      failed: Array<{ path: string; reason: string }>;
      recorded: boolean;
    };

interface CheckedFile {
  planned: PlannedRestore;
  content: Buffer | null;
  disk: FileBytes | null;
  forced: boolean;
}

export async function undoAccepted(request: UndoRequest, bytes: WorkspaceBytes, sink: RestorePointSink): Promise<UndoOutcome> {
  const plan = planUndo(request.points, request.paths);
  if ('nothing' in plan) return { status: 'nothing', why: plan.nothing };
  const refused: Array<{ path: string; reason: string; forceable: boolean }> = [];
  const ready: CheckedFile[] = [];
  for (const planned of plan.files) {
    const checked = check(planned, bytes, request.force === true);
    if ('reason' in checked) refused.push({ path: planned.path, ...checked });
    else ready.push(checked);
  }
  if (refused.length > 0 && (request.force !== true || ready.length === 0))
    return { status: 'refused', direction: plan.direction, refused };
  const recorder = new UndoRecorder();
  const files: UndoFileOutcome[] = [];
  const failed: Array<{ path: string; reason: string }> = [];
  for (const file of ready) {
    const { path, target } = file.planned;
    try {
      if (file.content === null) await bytes.remove(path);
      else await bytes.write(path, file.content);
    } catch (error) {
      failed.push({ path, reason: errorMessage(error) });
      continue;
    }
    recorder.add(path, file.disk, target);
    files.push({ path, action: target === null ? 'deleted' : file.disk === null ? 'created' : 'restored', forced: file.forced });
  }
  const recorded = await recorder.record(sink, request.runId, plan.direction, request.now ?? Date.now);
  return {
    status: 'done',
    direction: plan.direction,
    files,
    refused: refused.map(({ path, reason }) => ({ path, reason })),
    failed,
    recorded,
  };
}

/** The file ready to write (its bytes, what the disk holds now), or why it is refused. */
function check(planned: PlannedRestore, bytes: WorkspaceBytes, force: boolean): CheckedFile | { reason: string; forceable: boolean } {
  let content: Buffer | null = null;
  if (planned.target !== null) {
    const kept = contentBytes(planned.target);
    if (!kept)
      return {
        reason:
          planned.target.data === undefined
            ? `its content before (${planned.target.bytes} bytes) was too large to keep, so it cannot be put back`
            : 'its kept content does not match its digest (the run log was altered?)',
        forceable: false,
      };
    content = kept;
  }
  let disk: FileBytes | null;
  try {
    disk = bytes.read(planned.path);
  } catch (error) {
    return { reason: errorMessage(error), forceable: false };
  }
  if (disk !== null && disk.content === undefined)
    return { reason: `it is ${disk.digest.bytes} bytes now, too large to keep for an undo of this undo`, forceable: false };
  const unchanged = sameDigest(disk?.digest ?? null, planned.expected);
  if (!unchanged && !force)
    return {
      reason:
        disk === null
          ? 'it was deleted since the change was accepted'
          : planned.expected === null
            ? 'it was created again since'
            : 'it changed on disk since the change was accepted',
      forceable: true,
    };
  return { planned, content, disk, forced: !unchanged };
}
