/**
 * A restore point: what one accept (or one undo) changed on disk, recorded in the run's log so that it
 * can be taken back exactly. Per file, the content before (kept whole: it is what an undo writes back;
 * null when the file did not exist, so the accept created it) and the digest after (what the disk must
 * still hold for an undo to go ahead without `--force`; null when the file was deleted). The content
 * after needs no keeping: an undo reads it from the disk, checks it against the digest, and keeps it in
 * its own restore point, which is what an undo of that undo writes back.
 *
 * In the log a point is one `restore-file` record per file (a file can be megabytes; each is its own
 * line) followed by one `restore-point` record that closes it: a point whose closing record is missing (a
 * crash between the lines) was never finished and is not offered.
 */
import * as z from 'zod';
import { type ContentDigest, type StoredContent, buildStoredContentSchemas } from './stored-content.js';

/** `accept`: proposals written to the disk; `undo`: their content before put back; `redo`: an undo taken back. */
export type RestorePointKind = 'accept' | 'undo' | 'redo';

export interface RestoreFile {
  /** Workspace-relative POSIX path, as the proposal named it. */
  path: string;
  /** The content before; null: there was no file. */
  before: StoredContent | null;
  /** What the disk held after; null: no file (deleted). */
  after: ContentDigest | null;
}

export interface RestorePoint {
  pointId: string;
  kind: RestorePointKind;
  /** Milliseconds since the epoch. */
  at: number;
  /** The tasks whose proposals an accept wrote; empty for an undo. */
  taskIds: string[];
  files: RestoreFile[];
}

/** The header of a point, closing its `restore-file` records. */
export type RestorePointHeader = Omit<RestorePoint, 'files'> & { paths: string[] };

export type RestorePointRecord =
  { type: 'restore-file'; pointId: string; file: RestoreFile } | ({ type: 'restore-point' } & RestorePointHeader);

/** The records' schemas, built when the run-record schema is (run-log-records.ts), not when the module loads (B5). */
export function buildRestorePointRecordSchemas() {
  const { contentDigestSchema, storedContentSchema } = buildStoredContentSchemas();
  const identifier = z.string().min(1);
  const restoreFileSchema = z.object({
    path: identifier,
    before: storedContentSchema.nullable(),
    after: contentDigestSchema.nullable(),
  });
  return [
    z.object({ type: z.literal('restore-file'), pointId: identifier, file: restoreFileSchema }),
    z.object({
      type: z.literal('restore-point'),
      pointId: identifier,
      kind: z.enum(['accept', 'undo', 'redo']),
      at: z.number(),
      taskIds: z.array(identifier),
      paths: z.array(identifier),
    }),
  ] as const;
}

/** The records of `point`, in the order they are written: its files, then the header that closes it. */
export function recordsOf(point: RestorePoint): RestorePointRecord[] {
  const { files, ...header } = point;
  return [
    ...files.map((file) => ({ type: 'restore-file' as const, pointId: point.pointId, file })),
    { type: 'restore-point', ...header, paths: files.map((file) => file.path) },
  ];
}

/** Folds a run's restore-point records, in file order, into its finished points. */
export class RestorePointsBeingRead {
  private readonly files = new Map<string, Map<string, RestoreFile>>();
  private readonly points: RestorePoint[] = [];

  constructor(private readonly warn: (message: string) => void) {}

  add(record: RestorePointRecord): void {
    if (record.type === 'restore-file') {
      const files = this.files.get(record.pointId) ?? new Map<string, RestoreFile>();
      files.set(record.file.path, record.file);
      this.files.set(record.pointId, files);
      return;
    }
    const { type: _type, paths, ...header } = record;
    const files = this.files.get(record.pointId);
    this.files.delete(record.pointId);
    const missing = paths.filter((path) => !files?.has(path));
    // A file's line lost (damaged, over the cap): the point is not offered, or an undo would be partial in silence.
    if (missing.length > 0)
      return this.warn(`The restore point ${record.pointId} lacks its record of ${missing.join(', ')}; it cannot be undone.`);
    this.points.push({ ...header, files: paths.map((path) => files!.get(path)!) });
  }

  finished(): RestorePoint[] {
    return this.points;
  }
}
