/**
 * The restore point of an undo: per file written, the content the disk held before (kept whole, checked
 * small enough by the undo) and the digest of what was written.
 */
import { type RestorePointSink, newPointId } from './accept-checkpoint.js';
import type { RestoreFile } from './restore-point.js';
import { type StoredContent, storeContent } from './stored-content.js';
import type { FileBytes } from './workspace-bytes.js';

export class UndoRecorder {
  private readonly files: RestoreFile[] = [];

  add(path: string, before: FileBytes | null, written: StoredContent | null): void {
    const content = before?.content;
    this.files.push({
      path,
      before: before === null ? null : content ? storeContent(content) : before.digest,
      after: written === null ? null : { bytes: written.bytes, sha256: written.sha256 },
    });
  }

  async record(sink: RestorePointSink, runId: string, direction: 'undo' | 'redo', now: () => number): Promise<boolean> {
    if (this.files.length === 0) return false;
    const at = now();
    return sink.recordRestorePoint(runId, { pointId: newPointId(at), kind: direction, at, taskIds: [], files: this.files });
  }
}
