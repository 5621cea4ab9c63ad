import { describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { applyHunks, computeHunks } from '../../src/engine/changes/hunks.js';

/** Twenty numbered lines: far enough apart that edits at 2, 10 and 18 make three separate hunks. */
const base = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');
const proposed = base.replace('line 2\n', 'line two\n').replace('line 10\n', 'line ten\nline ten and a half\n').replace('line 18\n', '');

describe('computeHunks', () => {
  it('splits distant edits into separate hunks with three lines of context and counts', () => {
    const hunks = computeHunks('f.txt', base, proposed);
    expect(hunks.map((hunk) => [hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines, hunk.added, hunk.removed])).toEqual([
      [1, 5, 1, 5, 1, 1],
      [7, 7, 7, 8, 2, 1],
      [15, 6, 16, 5, 0, 1],
    ]);
    expect(hunks[1].lines).toEqual([
      ' line 7',
      ' line 8',
      ' line 9',
      '-line 10',
      '+line ten',
      '+line ten and a half',
      ' line 11',
      ' line 12',
      ' line 13',
    ]);
  });

  it('gives hunks ids that survive unrelated edits and change when the hunk changes', () => {
    const first = computeHunks('f.txt', base, proposed);
    const moreEdits = proposed.replace('line 18\n', 'x').replace('line 2\n', 'line TWO\n');
    const second = computeHunks('f.txt', base, proposed.replace('line two\n', 'line TWO\n'));
    expect(second[1].id).toBe(first[1].id);
    expect(second[2].id).toBe(first[2].id);
    expect(second[0].id).not.toBe(first[0].id);
    expect(computeHunks('other.txt', base, proposed)[1].id).not.toBe(first[1].id);
    expect(new Set(computeHunks('f.txt', base, moreEdits).map((hunk) => hunk.id)).size).toBe(3);
  });

  it('marks a missing final newline in the diff and keeps it exact', () => {
    const hunks = computeHunks('f.txt', 'a\nb', 'a\nb\n');
    expect(hunks[0].lines).toEqual([' a', '-b', '\\ No newline at end of file', '+b']);
    expect(applyHunks('a\nb', hunks, () => true)).toBe('a\nb\n');
    expect(applyHunks('a\nb', hunks, () => false)).toBe('a\nb');
  });

  it('keeps CRLF line endings byte for byte', () => {
    const crlf = 'one\r\ntwo\r\nthree\r\n';
    const changed = 'one\r\n2\r\nthree\r\n';
    const hunks = computeHunks('w.txt', crlf, changed);
    expect(applyHunks(crlf, hunks, () => true)).toBe(changed);
  });

  it('makes one creation hunk for a new file, even an empty one', () => {
    expect(computeHunks('n.txt', null, 'a\nb\n').map((hunk) => [hunk.oldLines, hunk.newLines, hunk.added])).toEqual([[0, 2, 2]]);
    expect(computeHunks('n.txt', null, '')).toHaveLength(1);
  });

  it('falls back to one replacement hunk when the files differ too much to diff cheaply', () => {
    const old = Array.from({ length: 5000 }, (_, index) => `a${index}\n`).join('');
    const next = Array.from({ length: 5000 }, (_, index) => `b${index}\n`).join('');
    const hunks = computeHunks('big.txt', old, next);
    expect(hunks).toHaveLength(1);
    expect(applyHunks(old, hunks, () => true)).toBe(next);
  });
});

describe('resultContent with hunk decisions', () => {
  it('is exactly the base plus the accepted hunks: accepting only the middle one', () => {
    const changeSet = new ChangeSet({ taskId: 't', role: 'coder' });
    const file = changeSet.propose('f.txt', { baseContent: base, proposedContent: proposed })!;
    expect(file.hunks).toHaveLength(3);
    changeSet.accept({ path: 'f.txt', hunkId: file.hunks[1].id });
    changeSet.reject({ path: 'f.txt', hunkId: file.hunks[2].id });
    expect(changeSet.resultContent('f.txt')).toBe(base.replace('line 10\n', 'line ten\nline ten and a half\n'));
    expect(changeSet.file('f.txt')!.hunks.map((hunk) => hunk.decision)).toEqual(['pending', 'accepted', 'rejected']);
  });

  it('accepting the first and last only keeps the middle as in the base', () => {
    const changeSet = new ChangeSet({ taskId: 't', role: 'coder' });
    const file = changeSet.propose('f.txt', { baseContent: base, proposedContent: proposed })!;
    changeSet.accept({ path: 'f.txt', hunkId: file.hunks[0].id });
    changeSet.accept({ path: 'f.txt', hunkId: file.hunks[2].id });
    expect(changeSet.resultContent('f.txt')).toBe(base.replace('line 2\n', 'line two\n').replace('line 18\n', ''));
  });

  it('all accepted is the proposal; none accepted is the base', () => {
    const changeSet = new ChangeSet({ taskId: 't', role: 'coder' });
    changeSet.propose('f.txt', { baseContent: base, proposedContent: proposed });
    expect(changeSet.resultContent('f.txt')).toBe(base);
    changeSet.accept({ path: 'f.txt' });
    expect(changeSet.resultContent('f.txt')).toBe(proposed);
  });
});
