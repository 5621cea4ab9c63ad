import { afterEach, describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../src/engine/changes/apply.js';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { createWorkspaceTools } from '../../src/engine/file-tools/tools/create-workspace-tools.js';
import { runTool } from '../workspace/run-tool.js';
import { tempTrees } from '../workspace/temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

const base = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');

async function setup(files: Record<string, string> = { 'f.txt': base }) {
  const tree = await trees.create(files);
  const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
  const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
  const { readOnly, edit } = createWorkspaceTools({ workspace, changeSet });
  return { tree, workspace, changeSet, tools: [...readOnly, ...edit] };
}

describe('applyChangeSet', () => {
  it('writes exactly the base plus the accepted hunks, and marks the file applied', async () => {
    const { tree, workspace, changeSet, tools } = await setup();
    await runTool(tools, 'Edit', { file_path: 'f.txt', old_string: 'line 2\n', new_string: 'two\n' });
    await runTool(tools, 'Edit', { file_path: 'f.txt', old_string: 'line 10\n', new_string: 'ten\n' });
    await runTool(tools, 'Edit', { file_path: 'f.txt', old_string: 'line 18\n', new_string: 'eighteen\n' });
    const hunks = changeSet.file('f.txt')!.hunks;
    expect(hunks).toHaveLength(3);
    changeSet.accept({ path: 'f.txt', hunkId: hunks[1].id });
    const report = await applyChangeSet(changeSet, workspace);
    expect(report.files).toEqual([{ path: 'f.txt', outcome: 'applied', message: 'f.txt: applied 1 of 3 changes.' }]);
    expect(await tree.read('f.txt')).toBe(base.replace('line 10\n', 'ten\n'));
    expect(changeSet.file('f.txt')!.status).toBe('applied');
    expect((await applyChangeSet(changeSet, workspace, { paths: ['f.txt'] })).files[0].outcome).toBe('skipped');
  });

  it('skips files whose changes were all rejected or not decided, writing nothing', async () => {
    const { tree, workspace, changeSet, tools } = await setup({ 'f.txt': base, 'g.txt': 'g\n' });
    await runTool(tools, 'Write', { file_path: 'f.txt', content: 'rewritten\n' });
    await runTool(tools, 'Write', { file_path: 'g.txt', content: 'G\n' });
    changeSet.reject({ path: 'f.txt' });
    const report = await applyChangeSet(changeSet, workspace);
    expect(report.files.map((file) => [file.path, file.outcome, file.message])).toEqual([
      ['f.txt', 'skipped', 'f.txt: all changes rejected; left as it is.'],
      ['g.txt', 'skipped', 'g.txt: no change accepted; left as it is.'],
    ]);
    expect(await tree.read('f.txt')).toBe(base);
    expect(await tree.read('g.txt')).toBe('g\n');
  });

  it('creates accepted new files, parent folders included', async () => {
    const { tree, workspace, changeSet, tools } = await setup();
    await runTool(tools, 'Write', { file_path: 'docs/new/guide.md', content: '# Guide\n' });
    changeSet.accept();
    expect((await applyChangeSet(changeSet, workspace)).files[0].outcome).toBe('applied');
    expect(await tree.read('docs/new/guide.md')).toBe('# Guide\n');
  });

  it('merges the accepted hunks onto a file changed on disk when they touch none of its changed lines', async () => {
    const { tree, workspace, changeSet, tools } = await setup();
    await runTool(tools, 'Edit', { file_path: 'f.txt', old_string: 'line 10\n', new_string: 'ten\n' });
    changeSet.accept();
    const someoneElse = `header added by someone else\n${base}`;
    await tree.write('f.txt', someoneElse);
    const [result] = (await applyChangeSet(changeSet, workspace)).files;
    expect(result.outcome).toBe('applied');
    expect(result.message).toBe(
      'f.txt: applied 1 of 1 change, merged with the changes made on disk since the task read it (on disk; no line changed by both).',
    );
    expect(await tree.read('f.txt')).toBe(someoneElse.replace('line 10\n', 'ten\n'));
    expect(changeSet.file('f.txt')!.status).toBe('applied');
  });

  it('on a conflict writes nothing of that file and offers the merged file with both sides marked', async () => {
    const { tree, workspace, changeSet, tools } = await setup();
    await runTool(tools, 'Edit', { file_path: 'f.txt', old_string: 'line 10\n', new_string: 'ten\n' });
    changeSet.accept();
    const theirs = base.replace('line 10\n', 'someone else changed 10\n');
    await tree.write('f.txt', theirs);
    const [result] = (await applyChangeSet(changeSet, workspace)).files;
    expect(result.outcome).toBe('conflict');
    expect(result.message).toMatch(
      /^f\.txt changed on disk since the task read it \(on disk\) and lines 7–13 were changed by both on disk and task t1; nothing was written/,
    );
    expect(await tree.read('f.txt')).toBe(theirs);
    expect(changeSet.file('f.txt')!.status).toBe('pending');
    expect(result.conflicts!.regions).toHaveLength(1);
    expect(result.rebase!.baseContent).toBe(theirs);
    expect(result.rebase!.proposedContent).toContain('<<<<<<< on disk\n');
    expect(result.rebase!.proposedContent).toContain('someone else changed 10\n');
    expect(result.rebase!.proposedContent).toContain('=======\nline 7\nline 8\nline 9\nten\n');
    expect(result.rebase!.proposedContent).toContain('>>>>>>> task t1\n');

    // Adopting the marked file makes a fresh proposal on the current disk, to edit, review and apply.
    const rebased = changeSet.rebase('f.txt', result.rebase!)!;
    expect(rebased.baseContent).toBe(theirs);
    expect(rebased.hunks.every((hunk) => hunk.decision === 'pending')).toBe(true);
  });

  it('settles a conflict as asked: either side, or both between markers', async () => {
    for (const [side, expected] of [
      ['current', base.replace('line 10\n', 'theirs\n')],
      ['proposed', base.replace('line 10\n', 'ten\n')],
    ] as const) {
      const { tree, workspace, changeSet, tools } = await setup();
      await runTool(tools, 'Edit', { file_path: 'f.txt', old_string: 'line 10\n', new_string: 'ten\n' });
      changeSet.accept();
      await tree.write('f.txt', base.replace('line 10\n', 'theirs\n'));
      const [result] = (await applyChangeSet(changeSet, workspace, { settleConflicts: side })).files;
      expect(result.outcome).toBe('applied');
      expect(await tree.read('f.txt')).toBe(expected);
    }
  });

  it('reports a conflict when a proposed new file appeared on disk meanwhile', async () => {
    const { tree, workspace, changeSet, tools } = await setup();
    await runTool(tools, 'Write', { file_path: 'n.txt', content: 'mine\n' });
    changeSet.accept();
    await tree.write('n.txt', 'theirs\n');
    const [result] = (await applyChangeSet(changeSet, workspace)).files;
    expect([result.outcome, result.message]).toEqual([
      'conflict',
      'n.txt was created on disk after the task proposed it as a new file; nothing was written.',
    ]);
    expect(await tree.read('n.txt')).toBe('theirs\n');
  });

  it('writes sensitive configuration only when approved per file, whatever apply-all says', async () => {
    const { tree, workspace, changeSet, tools } = await setup({ '.vscode/settings.json': '{}\n', 'src/a.ts': 'a\n' });
    await runTool(tools, 'Write', { file_path: '.vscode/settings.json', content: '{"chat.tools.autoApprove": true}\n' });
    await runTool(tools, 'Write', { file_path: '.github/workflows/ci.yml', content: 'on: push\n' });
    await runTool(tools, 'Write', { file_path: 'src/a.ts', content: 'b\n' });
    changeSet.accept();
    const first = await applyChangeSet(changeSet, workspace);
    expect(first.files.map((file) => [file.path, file.outcome])).toEqual([
      ['.github/workflows/ci.yml', 'needs-approval'],
      ['.vscode/settings.json', 'needs-approval'],
      ['src/a.ts', 'applied'],
    ]);
    expect(await tree.read('.vscode/settings.json')).toBe('{}\n');
    await expect(tree.read('.github/workflows/ci.yml')).rejects.toThrow();

    const second = await applyChangeSet(changeSet, workspace, { approvedSensitive: ['.vscode/settings.json'] });
    expect(second.files.map((file) => [file.path, file.outcome])).toEqual([
      ['.github/workflows/ci.yml', 'needs-approval'],
      ['.vscode/settings.json', 'applied'],
    ]);
    expect(await tree.read('.vscode/settings.json')).toBe('{"chat.tools.autoApprove": true}\n');
  });
});
