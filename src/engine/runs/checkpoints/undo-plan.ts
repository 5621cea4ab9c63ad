/**
 * What an undo of a run writes, worked out from its restore points alone (nothing read from the disk).
 * Each file the run's accepts wrote is either `accepted` (an accept or a redo is the last word on it) or
 * `undone`. One command, one direction, so that running it twice is a round trip:
 * - when the newest point among the files asked for is an undo, this is an undo of that undo (`redo`):
 *   the files it put back get the content they had right before it (the accepted content);
 * - otherwise (`undo`) every accepted file gets its content from before the accepts now in place (the
 *   oldest of them since the file was last undone), created files are deleted.
 * Each planned file says what the disk must hold for it to go ahead unforced: what the last point wrote.
 */
import type { RestoreFile, RestorePoint } from './restore-point.js';
import { type ContentDigest, type StoredContent, sameDigest } from './stored-content.js';

export interface PlannedRestore {
  path: string;
  /** What is written back; null: the file is deleted (the accept created it). */
  target: StoredContent | null;
  /** What the disk must still hold (what the last restore point of the file left); null: no file. */
  expected: ContentDigest | null;
}

export type UndoPlan = { direction: 'undo' | 'redo'; files: PlannedRestore[] } | { nothing: string };

interface FileState {
  mode: 'accepted' | 'undone';
  /** The content before the accepts now in place. */
  origin: StoredContent | null;
  /** The newest point that wrote the file, its position, and its record of the file. */
  last: { point: RestorePoint; order: number; file: RestoreFile };
}

/** `paths`: only these (already checked to be files of the run's points). Default: every file. */
export function planUndo(points: readonly RestorePoint[], paths?: ReadonlySet<string>): UndoPlan {
  const states = fileStates(points);
  const chosen = [...states.entries()].filter(([path]) => !paths || paths.has(path));
  if (chosen.length === 0) return { nothing: 'no change of it was accepted' };
  const newest = chosen.reduce((latest, entry) => (entry[1].last.order > latest[1].last.order ? entry : latest));
  const redo = newest[1].last.point.kind === 'undo';
  const files: PlannedRestore[] = [];
  for (const [path, state] of chosen) {
    if (redo && state.last.point !== newest[1].last.point) continue;
    if (!redo && state.mode !== 'accepted') continue;
    const target = redo ? state.last.file.before : state.origin;
    const expected = state.last.file.after;
    if (sameDigest(target, expected)) continue;
    files.push({ path, target, expected });
  }
  if (files.length === 0) return { nothing: redo ? 'the last undo changed nothing' : 'every accepted change of it is undone already' };
  return { direction: redo ? 'redo' : 'undo', files };
}

/** Every path the run's restore points wrote, sorted. */
export function restoredPaths(points: readonly RestorePoint[]): string[] {
  return [...fileStates(points).keys()].sort();
}

function fileStates(points: readonly RestorePoint[]): Map<string, FileState> {
  const states = new Map<string, FileState>();
  points.forEach((point, order) => {
    for (const file of point.files) {
      const state = states.get(file.path);
      const last = { point, order, file };
      if (point.kind === 'accept') {
        // An accept onto accepted content keeps the older origin: an undo goes back to before them all.
        const origin = state?.mode === 'accepted' ? state.origin : file.before;
        states.set(file.path, { mode: 'accepted', origin, last });
      } else {
        states.set(file.path, { mode: point.kind === 'undo' ? 'undone' : 'accepted', origin: state?.origin ?? null, last });
      }
    }
  });
  return states;
}
