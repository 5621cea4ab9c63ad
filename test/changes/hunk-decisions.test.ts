/**
 * Per-hunk decisions in the engine (changes/hunk-decisions.ts), as the review, `agent-team apply --hunk`
 * and MCP use them: an accepted hunk is written alone and what is left stays proposed on top of it; a
 * rejected hunk leaves the proposal rebuilt without it; a stale file is refused by name when asked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { acceptHunks, rejectHunks } from '../../src/engine/changes/hunk-decisions.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { tempTrees } from '../workspace/temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

const base = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');
const proposed = base.replace('line 2\n', 'two\n').replace('line 10\n', 'ten\n').replace('line 18\n', 'eighteen\n');

async function setup() {
  const tree = await trees.create({ 'f.txt': base });
  const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
  const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
  changeSet.propose('f.txt', { baseContent: base, proposedContent: proposed });
  return { tree, workspace, changeSet, hunks: changeSet.file('f.txt')!.hunks };
}

describe('hunk decisions', () => {
  it('writes one accepted hunk and keeps the rest proposed on top of it, the rejected one left out', async () => {
    const { tree, workspace, changeSet, hunks } = await setup();
    rejectHunks(changeSet, 'f.txt', [hunks[2].id]);
    expect(changeSet.file('f.txt')!.proposedContent).toBe(base.replace('line 2\n', 'two\n').replace('line 10\n', 'ten\n'));
    const result = await acceptHunks(changeSet, 'f.txt', [hunks[0].id], workspace);
    expect(result.outcome).toBe('applied');
    expect(await tree.read('f.txt')).toBe(base.replace('line 2\n', 'two\n'));
    const rest = changeSet.file('f.txt')!;
    expect(rest.status).toBe('pending');
    expect(rest.baseContent).toBe(base.replace('line 2\n', 'two\n'));
    expect(rest.hunks.map((hunk) => hunk.lines.filter((line) => line.startsWith('+')))).toEqual([['+ten']]);
    expect((await acceptHunks(changeSet, 'f.txt', [rest.hunks[0].id], workspace)).outcome).toBe('applied');
    expect(await tree.read('f.txt')).toBe(base.replace('line 2\n', 'two\n').replace('line 10\n', 'ten\n'));
    expect(changeSet.file('f.txt')!.status).toBe('applied');
  });

  it('refuses a stale file by name when asked, writing nothing and deciding nothing', async () => {
    const { tree, workspace, changeSet, hunks } = await setup();
    await tree.write('f.txt', `${base}more\n`);
    const result = await acceptHunks(changeSet, 'f.txt', [hunks[0].id], workspace, { whenStale: 'refuse' });
    expect(result.outcome).toBe('conflict');
    expect(result.message).toContain('f.txt changed on disk since its change was proposed');
    expect(await tree.read('f.txt')).toBe(`${base}more\n`);
    expect(changeSet.file('f.txt')!.hunks.every((hunk) => hunk.decision === 'pending')).toBe(true);
  });

  it('merges onto a changed file by default, and refuses a hunk that is not pending', async () => {
    const { tree, workspace, changeSet, hunks } = await setup();
    await tree.write('f.txt', `${base}more\n`);
    expect((await acceptHunks(changeSet, 'f.txt', [hunks[1].id], workspace)).outcome).toBe('applied');
    expect(await tree.read('f.txt')).toBe(`${base.replace('line 10\n', 'ten\n')}more\n`);
    expect(() => rejectHunks(changeSet, 'f.txt', [hunks[1].id])).toThrow(/no pending change/);
    expect(() => rejectHunks(changeSet, 'g.txt', ['x'])).toThrow(/no proposed change to g.txt/);
  });
});
