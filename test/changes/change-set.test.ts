import { describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { contentHash } from '../../src/engine/changes/file-change.js';
import { type ChangeSetEvent } from '../../src/engine/changes/types.js';
import { WorkspaceError } from '../../src/engine/errors.js';

const base = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');

function recorder(changeSet: ChangeSet) {
  const events: ChangeSetEvent[] = [];
  changeSet.onEvent((event) => events.push(event));
  return events;
}

describe('ChangeSet', () => {
  it('keeps the base of the first touch, hashes it, and updates the proposal with each edit', () => {
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    changeSet.propose('a.txt', { baseContent: base, proposedContent: base.replace('line 1\n', 'one\n') });
    const file = changeSet.propose('a.txt', { baseContent: 'ignored later', proposedContent: base.replace('line 1\n', 'ONE\n') })!;
    expect(file.baseContent).toBe(base);
    expect(file.baseHash).toBe(contentHash(base));
    expect(file.baseHash).toMatch(/^[0-9a-f]{64}$/);
    expect(file.proposedContent).toBe(base.replace('line 1\n', 'ONE\n'));
    expect([file.added, file.removed, file.isNew, file.status]).toEqual([1, 1, false, 'pending']);
    expect(file.diff).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,4 @@\n-line 1\n+ONE\n line 2\n line 3\n line 4\n');
  });

  it('records new files with a null base and a /dev/null diff', () => {
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    const file = changeSet.propose('new.txt', { baseContent: null, proposedContent: 'hello\n' })!;
    expect([file.isNew, file.baseHash, file.added]).toEqual([true, null, 1]);
    expect(file.diff).toBe('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hello\n');
    expect(changeSet.resultContent('new.txt')).toBeNull();
    changeSet.accept({ path: 'new.txt' });
    expect(changeSet.resultContent('new.txt')).toBe('hello\n');
  });

  it('emits change-proposed with the diff, change-decided and change-withdrawn', () => {
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    const events = recorder(changeSet);
    const file = changeSet.propose('a.txt', { baseContent: base, proposedContent: base.replace('line 5\n', 'five\n') })!;
    changeSet.reject({ path: 'a.txt', hunkId: file.hunks[0].id });
    changeSet.accept();
    changeSet.propose('a.txt', { baseContent: base, proposedContent: base });
    expect(events).toEqual([
      { type: 'change-proposed', taskId: 't1', path: 'a.txt', diff: file.diff, added: 1, removed: 1 },
      { type: 'change-decided', taskId: 't1', path: 'a.txt', hunkId: file.hunks[0].id, decision: 'rejected' },
      { type: 'change-decided', taskId: 't1', path: 'a.txt', hunkId: null, decision: 'accepted' },
      { type: 'change-withdrawn', taskId: 't1', path: 'a.txt' },
    ]);
    expect(changeSet.paths()).toEqual([]);
  });

  it('keeps decisions of hunks that survive a later edit; new hunks start pending', () => {
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    const first = changeSet.propose('a.txt', { baseContent: base, proposedContent: base.replace('line 2\n', 'two\n') })!;
    changeSet.accept({ path: 'a.txt', hunkId: first.hunks[0].id });
    const second = changeSet.propose('a.txt', {
      baseContent: base,
      proposedContent: base.replace('line 2\n', 'two\n').replace('line 18\n', 'eighteen\n'),
    })!;
    expect(second.hunks.map((hunk) => [hunk.id === first.hunks[0].id, hunk.decision])).toEqual([
      [true, 'accepted'],
      [false, 'pending'],
    ]);
  });

  it('flags sensitive configuration as requiring approval and refuses protected paths and bad paths', () => {
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    for (const path of [
      '.vscode/settings.json',
      '.vscode/tasks.json',
      '.github/workflows/ci.yml',
      '.agent-team/agents/x.md',
      '.claude/settings.json',
      '.gitattributes',
      'lib/.gitattributes',
      '.gitmodules',
      '.mcp.json',
      '.envrc',
    ]) {
      expect(changeSet.propose(path, { baseContent: null, proposedContent: '{}\n' })!.requiresApproval).toBe(true);
    }
    expect(changeSet.propose('src/settings.json', { baseContent: null, proposedContent: '{}\n' })!.requiresApproval).toBe(false);
    // Secret files are written only with approval as well: `.env` and `.npmrc` change what tools run.
    expect(changeSet.propose('.env', { baseContent: null, proposedContent: 'NODE_OPTIONS=--require ./x.js\n' })!.requiresApproval).toBe(
      true,
    );
    expect(changeSet.propose('.env.example', { baseContent: null, proposedContent: 'KEY=\n' })!.requiresApproval).toBe(false);
    expect(() => changeSet.propose('.git/HEAD', { baseContent: null, proposedContent: 'x' })).toThrow(WorkspaceError);
    expect(() => changeSet.propose('../x', { baseContent: null, proposedContent: 'x' })).toThrow(/not a workspace-relative file path/);
    expect(() => changeSet.propose('/etc/passwd', { baseContent: null, proposedContent: 'x' })).toThrow(/not a workspace-relative/);
  });

  it('refuses decisions on unknown files and hunks with errors that say what to do', () => {
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    changeSet.propose('a.txt', { baseContent: base, proposedContent: `${base}more\n` });
    expect(() => changeSet.accept({ path: 'b.txt' })).toThrow('Task t1 proposed no change to b.txt.');
    expect(() => changeSet.accept({ path: 'a.txt', hunkId: 'nope' })).toThrow(/no hunk nope; the proposal changed/);
    expect(() => changeSet.accept({ hunkId: 'nope' })).toThrow(/needs the file path/);
  });

  it('is JSON-serializable and restores from its snapshot with decisions', () => {
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    const file = changeSet.propose('a.txt', {
      baseContent: base,
      proposedContent: base.replace('line 2\n', 'two\n').replace('line 18\n', ''),
    })!;
    changeSet.propose('n.txt', { baseContent: null, proposedContent: 'new\n' });
    changeSet.accept({ path: 'a.txt', hunkId: file.hunks[1].id });
    const snapshot = changeSet.snapshot();
    const roundTripped = JSON.parse(JSON.stringify(snapshot)) as typeof snapshot;
    expect(roundTripped).toEqual(snapshot);
    expect([snapshot.added, snapshot.removed]).toEqual([2, 2]);
    const restored = ChangeSet.fromSnapshot(roundTripped);
    expect(restored.snapshot()).toEqual(snapshot);
    expect(restored.resultContent('a.txt')).toBe(base.replace('line 18\n', ''));
  });
});
