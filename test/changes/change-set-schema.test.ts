/**
 * The saved proposals are read back with the lenient variant of the engine's own change-set definition,
 * so they accept exactly what a real change set produces, and a set restored from them is the same set.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { changeSetSnapshotSchemas, fileChangeSnapshotSchemas, hunkSnapshotSchemas } from '../../src/engine/changes/change-set-schema.js';
import type { ChangeSetSnapshot, FileChangeSnapshot } from '../../src/engine/changes/types.js';

const base = Array.from({ length: 30 }, (_, index) => `line ${index + 1}\n`).join('');
const roundTrip = <Value>(value: Value): Value => JSON.parse(JSON.stringify(value)) as Value;
const sorted = (keys: Iterable<string>) => [...new Set(keys)].sort();

/**
 * A set with a new file, an edited file with two hunks (one accepted, one rejected), an applied file, an
 * overlap, a file reached through a symbolic link (its target recorded) and one the user edited by hand.
 */
function realChangeSet(): ChangeSet {
  const changeSet = new ChangeSet({ taskId: 't1', role: 'refactorer' });
  changeSet.propose('src/new.ts', { baseContent: null, proposedContent: 'export const x = 1;\n' });
  changeSet.propose('src/edited.ts', {
    baseContent: base,
    proposedContent: base.replace('line 2\n', 'two\n').replace('line 28\n', 'twenty-eight\n'),
  });
  const [first, second] = changeSet.file('src/edited.ts')!.hunks;
  changeSet.accept({ path: 'src/edited.ts', hunkId: first.id });
  changeSet.reject({ path: 'src/edited.ts', hunkId: second.id });
  changeSet.propose('src/applied.ts', { baseContent: 'a\n', proposedContent: 'b\n' });
  changeSet.markApplied('src/applied.ts');
  changeSet.setOverlaps('src/new.ts', ['t2']);
  changeSet.propose('docs-link/guide.md', { baseContent: null, proposedContent: '# Guide\n', target: 'docs/guide.md' });
  changeSet.propose('src/by-hand.ts', { baseContent: 'a\n', proposedContent: 'b\n' });
  changeSet.editProposed('src/by-hand.ts', 'c\n');
  return changeSet;
}

describe('ChangeSetSnapshot: one definition for the engine and the saved proposals', () => {
  it('reads back, whole, what a real change set produces, and restores the same set from it', () => {
    const snapshot = realChangeSet().snapshot();
    const parsed = changeSetSnapshotSchemas.lenient.parse(roundTrip(snapshot));
    expect(parsed).toEqual(snapshot);
    expect(ChangeSet.fromSnapshot(parsed).snapshot()).toEqual(snapshot);
    expect(changeSetSnapshotSchemas.strict.parse(snapshot)).toEqual(snapshot);
  });

  it('the snapshot exercises every field the definitions name', () => {
    const snapshot = realChangeSet().snapshot();
    expect(sorted(Object.keys(snapshot))).toEqual(sorted(Object.keys(changeSetSnapshotSchemas.strict.shape)));
    expect(sorted(snapshot.files.flatMap((file) => Object.keys(file)))).toEqual(
      sorted(Object.keys(fileChangeSnapshotSchemas.strict.shape)),
    );
    expect(sorted(snapshot.files.flatMap((file) => file.hunks.flatMap((hunk) => Object.keys(hunk))))).toEqual(
      sorted(Object.keys(hunkSnapshotSchemas.strict.shape)),
    );
    expect(sorted(snapshot.files.map((file) => file.status))).toEqual(['applied', 'pending']);
  });

  it('drops fields a newer version added instead of losing the proposals', () => {
    const snapshot = realChangeSet().snapshot();
    const fromNewerVersion = { ...snapshot, owner: 'x', files: snapshot.files.map((file) => ({ ...file, encoding: 'utf8' })) };
    expect(changeSetSnapshotSchemas.lenient.parse(fromNewerVersion)).toEqual(snapshot);
    expect(changeSetSnapshotSchemas.strict.safeParse(fromNewerVersion).success).toBe(false);
  });

  it('the inferred types are the engine types', () => {
    expectTypeOf<z.infer<typeof changeSetSnapshotSchemas.lenient>>().toEqualTypeOf<ChangeSetSnapshot>();
    expectTypeOf<z.infer<typeof fileChangeSnapshotSchemas.lenient>>().toEqualTypeOf<FileChangeSnapshot>();
  });
});
