/**
 * Scratch copies on real folders: what is in them, how they are brought to a task's view and back, and
 * what they never do (write through a linked folder into the user's, keep a command's git changes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchCopies } from '../../src/engine/commands/scratch-copies.js';
import { ScratchCopy } from '../../src/engine/commands/scratch-copy.js';
import { commitAll } from './bash-support.js';

let base: string;
let folder: string;
let scratch: string;
const copies: ScratchCopy[] = [];

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'agent-team-scratch-test-'));
  folder = path.join(base, 'folder');
  scratch = path.join(base, 'scratch');
  await mkdir(folder);
});

afterEach(async () => {
  for (const copy of copies.splice(0)) await copy.remove();
  await rm(base, { recursive: true, force: true });
});

async function files(entries: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(entries)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), content);
  }
}

async function copyOf(root = folder): Promise<ScratchCopy> {
  const copy = await ScratchCopy.create(root, scratch);
  copies.push(copy);
  return copy;
}

const run = (copy: ScratchCopy, command: string) => execFileSync('bash', ['-c', command], { cwd: copy.cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: base } });

describe('a scratch copy', () => {
  it('of a subfolder of a repository: the command runs in the subfolder, proposals land there, paths are the workspace’s', async () => {
    await files({ 'app/src/a.txt': 'a\n', 'lib/b.txt': 'b\n' });
    commitAll(folder);
    const copy = await copyOf(path.join(folder, 'app'));
    expect(copy.kind).toBe('git');
    await copy.prepare([{ path: 'src/a.txt', content: 'proposed a\n' }]);
    expect(run(copy, 'cat src/a.txt ../lib/b.txt')).toBe('proposed a\nb\n');
    run(copy, 'echo new > src/new.txt');
    expect(await copy.changedFiles()).toEqual(['src/new.txt']);
  });

  it('puts back what a command changed, and what the next task should not see, before the next command', async () => {
    await files({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    commitAll(folder);
    const copy = await copyOf();
    await copy.prepare([{ path: 'a.txt', content: 'first task\n' }]);
    run(copy, 'echo changed > b.txt; rm a.txt; echo x > c.txt; mkdir -p out && echo y > out/d.txt');
    expect(await copy.changedFiles()).toEqual(['a.txt', 'b.txt', 'c.txt', 'out/d.txt']);
    await copy.prepare([]);
    expect(run(copy, 'cat a.txt b.txt; ls')).toBe('a\nb\na.txt\nb.txt\n');
    expect(await copy.changedFiles()).toEqual([]);
  });

  it('a command that stages, commits or checks out in the copy is undone: changes are still measured against the workspace', async () => {
    await files({ 'a.txt': 'a\n' });
    commitAll(folder);
    const copy = await copyOf();
    await copy.prepare([]);
    run(copy, 'echo b > a.txt && git add -A && git -c user.name=x -c user.email=x@y commit -qm x');
    expect(await copy.changedFiles()).toEqual(['a.txt']);
    await copy.prepare([]);
    expect(run(copy, 'cat a.txt; git status --short')).toBe('a\n');
    // The user's repository did not get the commit.
    expect(execFileSync('git', ['log', '--oneline'], { cwd: folder, encoding: 'utf8' }).trim().split('\n')).toHaveLength(1);
  });

  it("links ignored dependency folders instead of copying them, and never writes a proposal through one", async () => {
    await files({ '.gitignore': 'node_modules/\n', 'index.js': "require('dep')\n", 'node_modules/dep/index.js': 'module.exports = 1;\n' });
    commitAll(folder);
    const copy = await copyOf();
    expect(copy.linked).toEqual(['node_modules']);
    await copy.prepare([]);
    expect(run(copy, 'node -e "console.log(require(\'dep\'))"')).toBe('1\n');
    expect(await copy.changedFiles()).toEqual([]);
    await expect(copy.prepare([{ path: 'node_modules/dep/index.js', content: 'module.exports = 2;\n' }])).rejects.toThrow('leads out of the scratch copy');
    expect(await readFile(path.join(folder, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 1;\n');
    // Not even a folder is made through the link.
    await expect(copy.prepare([{ path: 'node_modules/newdep/lib/index.js', content: 'x\n' }])).rejects.toThrow('leads out of the scratch copy');
    expect(existsSync(path.join(folder, 'node_modules/newdep'))).toBe(false);
  });

  it('of a plain folder honours its .gitignore and leaves out node_modules even without one', async () => {
    await files({ '.gitignore': 'dist/\n', 'a.txt': 'a\n', 'dist/out.js': 'built\n', 'sub/node_modules/x/y.js': 'y\n' });
    const copy = await copyOf();
    expect(copy.kind).toBe('folder');
    expect(copy.linked).toEqual(['sub/node_modules']);
    await copy.prepare([{ path: 'new.txt', content: 'n\n' }]);
    expect(run(copy, 'ls -a; ls -l sub | grep -c node_modules')).toBe('.\n..\n.gitignore\na.txt\nnew.txt\nsub\n1\n');
    // No git directory inside the copy: the folder was not a repository.
    expect(existsSync(path.join(copy.cwd, '.git'))).toBe(false);
  });

  it('of a repository without a commit yet is a plain copy', async () => {
    await files({ 'a.txt': 'a\n' });
    execFileSync('git', ['init', '-q'], { cwd: folder });
    const copy = await copyOf();
    expect(copy.kind).toBe('folder');
    await copy.prepare([]);
    expect(run(copy, 'cat a.txt')).toBe('a\n');
  });
});

describe('the scratch copies of trees', () => {
  it('a busy copy is not shared: a second command of the tree gets its own; released ones are reused; an ended tree’s go', async () => {
    await files({ 'a.txt': 'a\n' });
    commitAll(folder);
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: scratch });
    const first = await trees.acquire('t1');
    const second = await trees.acquire('t1');
    expect(first).not.toBe(second);
    trees.release('t1', first);
    expect(await trees.acquire('t1')).toBe(first);
    trees.release('t1', first);
    trees.release('t1', second);
    expect(trees.count('t1')).toBe(2);
    await trees.endTree('t1');
    expect(trees.count('t1')).toBe(0);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('refuses a scratch directory that is a link (another user could have placed it), and closes an open one of ours', async () => {
    await files({ 'a.txt': 'a\n' });
    const elsewhere = path.join(base, 'elsewhere');
    await mkdir(elsewhere);
    const linked = path.join(base, 'linked-scratch');
    await symlink(elsewhere, linked);
    await expect(new ScratchCopies({ workspaceRoot: folder, directory: linked }).acquire('t1')).rejects.toThrow('is not a directory of this user');
    const open = path.join(base, 'open-scratch');
    await mkdir(open, { mode: 0o755 });
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: open });
    trees.release('t1', await trees.acquire('t1'));
    expect((await stat(open)).mode & 0o777).toBe(0o700);
    await trees.dispose();
  });

  it('removes copies a process that is gone left behind', async () => {
    await files({ 'a.txt': 'a\n' });
    await mkdir(path.join(scratch, '999999999-left'), { recursive: true });
    await mkdir(path.join(scratch, `${process.pid}-mine`), { recursive: true });
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: scratch });
    const copy = await trees.acquire('t1');
    const names = await readdir(scratch);
    expect(names).not.toContain('999999999-left');
    expect(names).toContain(`${process.pid}-mine`);
    trees.release('t1', copy);
    await trees.dispose();
  });
});
