/**
 * The restore point of an accept in VS Code (a file, a hunk, all of a task's): what each written file held
 * before, exactly, kept in the run's log so Undo Accepted Changes can put it back (engine/runs/checkpoints/).
 * Read from the disk the workspace folder is on, as the run log is; the write itself goes through VS Code.
 */
import { AcceptCheckpoint, type RestorePointSink, type Workspace, WorkspaceBytes } from '../../engine/index.js';

export interface AcceptRestorePoints {
  sink: RestorePointSink;
  /** The run a task belongs to; undefined: not in the run log (no workspace storage), so no point is kept. */
  runOf(taskId: string): Promise<string | undefined>;
}

/** A checkpoint for one accept, or undefined when no run log keeps restore points. */
export function acceptCheckpoint(points: AcceptRestorePoints | undefined, workspace: Workspace): AcceptCheckpoint | undefined {
  return points ? new AcceptCheckpoint(new WorkspaceBytes(workspace.root)) : undefined;
}

/** Appends the accept's point to its run's log; a failure is logged, never thrown: the file is written already. */
export async function recordAccept(
  points: AcceptRestorePoints | undefined,
  checkpoint: AcceptCheckpoint | undefined,
  taskId: string,
  warn: (message: string) => void,
): Promise<void> {
  if (!points || !checkpoint || checkpoint.paths().length === 0) return;
  const runId = await points.runOf(taskId);
  if (runId === undefined || !(await checkpoint.record(points.sink, runId, [taskId])))
    warn(
      `Task ${taskId}: the accepted change to ${checkpoint.paths().join(', ')} was written, but its restore point could not be kept; Undo Accepted Changes cannot take it back.`,
    );
}
