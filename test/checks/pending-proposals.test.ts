/**
 * What the checks of a run are given (issue 40): exactly what accepting the run's pending proposals would
 * write. A file the user rejected whole is not there; one accepted and written is not there (it is the
 * workspace now); where two tasks propose one file, the one that ended later wins; a symbolic link's
 * proposal lands on its target. In path order, as the engine fingerprints proposals.
 */
import { describe, expect, it } from 'vitest';
import { ChangeSetRegistry } from '../../src/engine/changes/index.js';
import type { TaskSnapshot } from '../../src/engine/tasks/index.js';
import { pendingProposals } from '../../src/engine/checks/pending-proposals.js';

const tree = (...tasks: Array<{ id: string; endedAt?: number }>) => ({ treeOf: () => tasks as unknown as TaskSnapshot[] });

describe("a run's proposals for its checks", () => {
  it('leaves out rejected and written files, layers the later task over the earlier, follows a link to its target', () => {
    const changes = new ChangeSetRegistry();
    const early = changes.create('t2', 'refactorer');
    early.propose('src/b.ts', { baseContent: 'b\n', proposedContent: 'b early\n' });
    early.propose('src/rejected.ts', { baseContent: 'r\n', proposedContent: 'r changed\n' });
    early.reject({ path: 'src/rejected.ts' });
    early.propose('src/written.ts', { baseContent: 'w\n', proposedContent: 'w changed\n' });
    early.accept({ path: 'src/written.ts' });
    early.markApplied('src/written.ts');
    const late = changes.create('t3', 'refactorer');
    late.propose('src/b.ts', { baseContent: 'b early\n', proposedContent: 'b late\n' });
    late.propose('link.ts', { baseContent: 'l\n', proposedContent: 'l changed\n', target: 'src/real.ts' });
    changes.create('t4', 'reviewer').propose('src/a.ts', { baseContent: null, proposedContent: 'new\n' });

    // t3 ended after t2, t4 is listed first but ended last.
    const { taskIds, proposals, authorOf } = pendingProposals(
      changes,
      tree({ id: 't1', endedAt: 50 }, { id: 't4', endedAt: 40 }, { id: 't3', endedAt: 30 }, { id: 't2', endedAt: 20 }),
      't1',
    );
    expect(taskIds).toEqual(['t2', 't3', 't4']);
    expect(proposals).toEqual([
      { path: 'src/a.ts', content: 'new\n' },
      { path: 'src/b.ts', content: 'b late\n' },
      { path: 'src/real.ts', content: 'l changed\n' },
    ]);
    expect(authorOf).toEqual(
      new Map([
        ['src/b.ts', 't3'],
        ['src/real.ts', 't3'],
        ['src/a.ts', 't4'],
      ]),
    );
  });

  it('gives nothing for a run whose proposals were all decided', () => {
    const changes = new ChangeSetRegistry();
    changes.create('t1', 'refactorer').propose('a.ts', { baseContent: 'a\n', proposedContent: 'b\n' });
    changes.get('t1')!.reject();
    expect(pendingProposals(changes, tree({ id: 't1', endedAt: 1 }), 't1')).toEqual({ taskIds: [], proposals: [], authorOf: new Map() });
  });
});

describe('the base without the rejected hunks', () => {
  it('gives the checks a file with one hunk rejected and one pending exactly as accepting the rest would write it', () => {
    const base = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');
    const changes = new ChangeSetRegistry();
    const changeSet = changes.create('t1', 'coder');
    changeSet.propose('f.txt', {
      baseContent: base,
      proposedContent: base.replace('line 2\n', 'two\n').replace('line 18\n', 'eighteen\n'),
    });
    const [first] = changeSet.file('f.txt')!.hunks;
    changeSet.reject({ path: 'f.txt', hunkId: first.id });
    const { proposals } = pendingProposals(changes, tree({ id: 't1', endedAt: 1 }), 't1');
    expect(proposals).toEqual([{ path: 'f.txt', content: base.replace('line 18\n', 'eighteen\n') }]);
  });
});
