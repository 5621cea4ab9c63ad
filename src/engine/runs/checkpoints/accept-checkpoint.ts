/**
 * Keeps the restore point of one accept (a file, a hunk, all of a run, `--apply`, `agent-team apply`):
 * handed to `applyChangeSet` as its `checkpoint`, it reads each file's exact bytes right before it is
 * written and its digest right after, then `record` appends the point to the run's log. A file written
 * twice in one accept (several tasks' proposals merged onto it) keeps its content from before the first.
 */
import { randomBytes } from 'node:crypto';
import type { ApplyCheckpoint } from '../../changes/apply.js';
import type { RestoreFile, RestorePoint, RestorePointKind } from './restore-point.js';
import { storeContent } from './stored-content.js';
import type { WorkspaceBytes } from './workspace-bytes.js';

/** Where restore points go: the run log (`RunLog.recordRestorePoint`). */
export interface RestorePointSink {
  recordRestorePoint(runId: string, point: RestorePoint): Promise<boolean>;
}

export class AcceptCheckpoint implements ApplyCheckpoint {
  private readonly files = new Map<string, RestoreFile>();

  /** `now`: the point's time. Default: `Date.now`. */
  constructor(
    private readonly bytes: WorkspaceBytes,
    private readonly now: () => number = Date.now,
  ) {}

  beforeWrite(path: string): Promise<void> {
    if (this.files.has(path)) return Promise.resolve();
    const read = this.bytes.read(path);
    // A file over the limit is kept as its digest: the accept goes on, and its undo says it cannot bring it back.
    const before = read === null ? null : read.content ? storeContent(read.content) : read.digest;
    this.files.set(path, { path, before, after: null });
    return Promise.resolve();
  }

  afterWrite(path: string): Promise<void> {
    const file = this.files.get(path);
    if (file) file.after = this.bytes.read(path, 0)?.digest ?? null;
    return Promise.resolve();
  }

  /** The paths written so far. */
  paths(): string[] {
    return [...this.files.keys()];
  }

  /** Appends the point (when a file was written) to the run's log; false when nothing was, or it could not be kept. */
  async record(sink: RestorePointSink, runId: string, taskIds: readonly string[], kind: RestorePointKind = 'accept'): Promise<boolean> {
    if (this.files.size === 0) return false;
    return sink.recordRestorePoint(runId, {
      pointId: newPointId(this.now()),
      kind,
      at: this.now(),
      taskIds: [...new Set(taskIds)],
      files: [...this.files.values()],
    });
  }
}

/** Unique within a run: the time, and random bytes for two points in one millisecond. */
export function newPointId(at: number): string {
  return `p${at.toString(36)}-${randomBytes(4).toString('hex')}`;
}
