/**
 * Scratch copies on real folders, of both kinds (the overlay view and the git-made copy): what is in them,
 * how they are brought to a task's view and back, and what they never do (write through a linked folder
 * into the user's, keep a command's git changes). Commands run as `Bash` runs them: through the copy's
 * launch (an overlay is mounted in the command's own namespace).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandCopy } from '../../src/engine/commands/command-copy.js';
import { OverlayCopy } from '../../src/engine/commands/overlay/overlay-copy.js';
import { overlaySupport } from '../../src/engine/commands/overlay/overlay-support.js';
import { ScratchCopies } from '../../src/engine/commands/scratch-copies.js';
import { ScratchCopy } from '../../src/engine/commands/scratch-copy.js';
import { createGitRunner } from '../../src/engine/commands/git-runner.js';

const git = createGitRunner(process.env).git;
import { commitAll, copyKinds, processesMarked } from './bash-support.js';

let base: string;
let folder: string;
let scratch: string;
const copies: CommandCopy[] = [];

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

async function copyOfKind(kind: (typeof copyKinds)[number], root: string, directory: string): Promise<CommandCopy> {
  if (kind === 'git') return ScratchCopy.create(root, directory, git);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const support = await overlaySupport(directory);
  if (!support.available) throw new Error(`no overlay here: ${support.reason}`);
  return OverlayCopy.create(root, directory, support.tools, git);
}

const run = (copy: CommandCopy, command: string) => {
  const launch = copy.launch({ file: 'bash', args: ['-c', command], environment: { PATH: process.env.PATH ?? '', HOME: base } });
  return execFileSync(launch.file, launch.args, { cwd: copy.cwd, encoding: 'utf8', env: launch.environment });
};

describe.each(copyKinds)('a scratch copy (%s)', (kind) => {
  async function copyOf(root = folder): Promise<CommandCopy> {
    const copy = await copyOfKind(kind, root, scratch);
    copies.push(copy);
    return copy;
  }

  it('of a subfolder of a repository: the command runs in the subfolder, proposals land there, paths are the workspace’s', async () => {
    await files({ 'app/src/a.txt': 'a\n', 'lib/b.txt': 'b\n' });
    commitAll(folder);
    const copy = await copyOf(path.join(folder, 'app'));
    expect(copy.kind).toBe(kind === 'git' ? 'git' : 'overlay');
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

  it.runIf(kind === 'overlay')(
    'shows ignored dependency folders copy-on-write: a proposal or a command writing there never reaches the user’s folder',
    async () => {
      await files({
        '.gitignore': 'node_modules/\n',
        'index.js': "require('dep')\n",
        'node_modules/dep/index.js': 'module.exports = 1;\n',
      });
      commitAll(folder);
      const copy = await copyOf();
      expect(copy.linked).toEqual([]);
      await copy.prepare([{ path: 'node_modules/dep/index.js', content: 'module.exports = 2;\n' }]);
      expect(run(copy, 'node -e "console.log(require(\'dep\'))"; echo 3 > node_modules/dep/other.js')).toBe('2\n');
      // Dependency folders are not reported, as the git-made copy does not report its linked ones.
      expect(await copy.changedFiles()).toEqual([]);
      expect(await readFile(path.join(folder, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 1;\n');
      expect(existsSync(path.join(folder, 'node_modules/dep/other.js'))).toBe(false);
    },
  );

  it.runIf(kind === 'git')(
    'links ignored dependency folders instead of copying them, and never writes a proposal through one',
    async () => {
      await files({
        '.gitignore': 'node_modules/\n',
        'index.js': "require('dep')\n",
        'node_modules/dep/index.js': 'module.exports = 1;\n',
      });
      commitAll(folder);
      const copy = await copyOf();
      expect(copy.linked).toEqual(['node_modules']);
      await copy.prepare([]);
      expect(run(copy, 'node -e "console.log(require(\'dep\'))"')).toBe('1\n');
      expect(await copy.changedFiles()).toEqual([]);
      await expect(copy.prepare([{ path: 'node_modules/dep/index.js', content: 'module.exports = 2;\n' }])).rejects.toThrow(
        'leads out of the scratch copy',
      );
      expect(await readFile(path.join(folder, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 1;\n');
      // Not even a folder is made through the link.
      await expect(copy.prepare([{ path: 'node_modules/newdep/lib/index.js', content: 'x\n' }])).rejects.toThrow(
        'leads out of the scratch copy',
      );
      expect(existsSync(path.join(folder, 'node_modules/newdep'))).toBe(false);
    },
  );

  it('of a plain folder honours its .gitignore and leaves out node_modules even without one', async () => {
    await files({ '.gitignore': 'dist/\n', 'a.txt': 'a\n', 'dist/out.js': 'built\n', 'sub/node_modules/x/y.js': 'y\n' });
    const copy = await copyOf();
    expect(copy.kind).toBe(kind === 'git' ? 'folder' : 'overlay');
    expect(copy.linked).toEqual(kind === 'git' ? ['sub/node_modules'] : []);
    await copy.prepare([{ path: 'new.txt', content: 'n\n' }]);
    expect(run(copy, 'ls -a; ls -l sub | grep -c node_modules')).toBe('.\n..\n.gitignore\na.txt\nnew.txt\nsub\n1\n');
    // No git directory inside the copy: the folder was not a repository.
    expect(run(copy, 'test -e .git && echo there || echo none')).toBe('none\n');
  });

  it('of a repository without a commit yet is a plain copy', async () => {
    await files({ 'a.txt': 'a\n' });
    execFileSync('git', ['init', '-q'], { cwd: folder });
    const copy = await copyOf();
    expect(copy.kind).toBe(kind === 'git' ? 'folder' : 'overlay');
    await copy.prepare([]);
    expect(run(copy, 'cat a.txt')).toBe('a\n');
  });
});

describe('an overlay view', () => {
  async function overlayOf(root = folder): Promise<CommandCopy> {
    const copy = await copyOfKind('overlay', root, scratch);
    copies.push(copy);
    return copy;
  }

  it('hides ignored files, one the user makes after the first command too, and the remotes of .git/config; git still works there', async () => {
    await files({ '.gitignore': '.env\n', 'a.txt': 'a\n' });
    commitAll(folder);
    execFileSync('git', ['remote', 'add', 'origin', 'https://x-access-token:ghs_secret123@github.com/o/r.git'], { cwd: folder });
    await files({ '.env': 'TOKEN=1\n', 'a.txt': 'changed in the working tree\n' });
    const copy = await overlayOf();
    await copy.prepare([]);
    expect(run(copy, 'ls -A; cat .git/config; git status --short')).toMatch(/^\.git\n\.gitignore\na\.txt\n[^]*M a\.txt\n$/);
    expect(run(copy, 'cat .git/config')).not.toContain('ghs_secret123');
    await mkdir(path.join(folder, 'later'));
    await writeFile(path.join(folder, 'later', '.env'), 'TOKEN=2\n');
    await copy.prepare([]);
    expect(run(copy, 'ls -A later; cat later/.env 2>&1 || true')).toMatch(/No such file/);
  });

  it('reports the files of a folder the command removed and made again that it did not make again', async () => {
    await files({ 'gen/a.txt': 'a\n', 'gen/b.txt': 'b\n', 'gen/deep/c.txt': 'c\n', 'keep.txt': 'k\n' });
    commitAll(folder);
    const copy = await overlayOf();
    await copy.prepare([]);
    run(copy, 'rm -rf gen && mkdir gen && echo a > gen/a.txt');
    expect(await copy.changedFiles()).toEqual(['gen/b.txt', 'gen/deep/c.txt']);
    await copy.prepare([]);
    run(copy, 'echo more >> keep.txt; touch gen/a.txt; chmod +x gen/b.txt');
    expect(await copy.changedFiles()).toEqual(['gen/b.txt', 'keep.txt']);
  });

  it('reads back what the command wrote; the user’s folder is untouched whatever it did, and nothing stays mounted', async () => {
    await files({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
    commitAll(folder);
    const copy = await overlayOf();
    await copy.prepare([{ path: 'a.txt', content: 'proposed\n' }]);
    run(copy, 'cat a.txt > copy.txt; rm -rf sub .git; echo x > a.txt');
    expect(await copy.changedFiles()).toEqual(['a.txt', 'copy.txt', 'sub/b.txt']);
    expect(await readFile(copy.changedFilePath('copy.txt'), 'utf8')).toBe('proposed\n');
    expect(existsSync(path.join(folder, 'sub', 'b.txt')) && existsSync(path.join(folder, '.git', 'HEAD'))).toBe(true);
    expect(await readFile(path.join(folder, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readdir(copy.cwd)).toEqual([]);
    // The namespace kept for the copy (as root) goes with it.
    await copy.remove();
    await expect.poll(() => processesMarked(scratch)).toEqual([]);
  });

  it.each([
    ['in a user namespace, as a user who is not root gets it', { privileged: false }],
    ['in a mount namespace of its own per command, as root without a usable nsenter gets it', { nsenter: undefined, umount: undefined }],
  ])('works the same %s, and the command runs with the user’s own ids', async (_name, change) => {
    await files({ 'a.txt': 'a\n', 'b.txt': 'b\n', '.gitignore': '.env\n', '.env': 'TOKEN=1\n', 'gen/x.txt': 'x\n', 'gen/y.txt': 'y\n' });
    commitAll(folder);
    await mkdir(scratch, { recursive: true, mode: 0o700 });
    const support = await overlaySupport(scratch);
    if (!support.available) throw new Error(support.reason);
    const { nsenter, umount, ...tools } = support.tools;
    const copy = await OverlayCopy.create(folder, scratch, { ...tools, ...(nsenter && umount ? { nsenter, umount } : {}), ...change }, git);
    copies.push(copy);
    await copy.prepare([{ path: 'a.txt', content: 'proposed\n' }]);
    expect(run(copy, 'id -u; cat a.txt; ls -A; rm b.txt; echo c > c.txt; rm -rf .git gen && mkdir gen && echo x > gen/x.txt')).toBe(
      `${process.getuid?.()}\nproposed\n.git\n.gitignore\na.txt\nb.txt\ngen\n`,
    );
    expect(await copy.changedFiles()).toEqual(['b.txt', 'c.txt', 'gen/y.txt']);
    expect(existsSync(path.join(folder, 'b.txt')) && existsSync(path.join(folder, '.git', 'HEAD'))).toBe(true);
  });

  it('never places a proposal through a link that leads out of the workspace', async () => {
    const outside = path.join(base, 'outside');
    await mkdir(outside);
    await files({ 'a.txt': 'a\n' });
    await symlink(outside, path.join(folder, 'out'));
    await symlink('.', path.join(folder, 'here'));
    commitAll(folder);
    const copy = await overlayOf();
    await expect(copy.prepare([{ path: 'out/x.txt', content: 'x\n' }])).rejects.toThrow('leads out of the scratch copy');
    await copy.prepare([{ path: 'here/b.txt', content: 'b\n' }]);
    expect(run(copy, 'cat b.txt')).toBe('b\n');
    expect(await readdir(outside)).toEqual([]);
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

  it('does not use a scratch directory that is a link (another user could have placed it), and closes an open one of ours', async () => {
    await files({ 'a.txt': 'a\n' });
    const elsewhere = path.join(base, 'elsewhere');
    await mkdir(elsewhere);
    const linked = path.join(base, 'linked-scratch');
    await symlink(elsewhere, linked);
    const squatted = new ScratchCopies({ workspaceRoot: folder, directory: linked });
    squatted.release('t1', await squatted.acquire('t1'));
    // A fresh folder of its own instead (scratch-directory.test.ts), nothing through the link.
    expect(await squatted.directory()).not.toBe(linked);
    await squatted.dispose();
    expect(await readdir(elsewhere)).toEqual([]);
    const open = path.join(base, 'open-scratch');
    await mkdir(open, { mode: 0o755 });
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: open });
    trees.release('t1', await trees.acquire('t1'));
    expect((await stat(open)).mode & 0o777).toBe(0o700);
    await trees.dispose();
  });

  it('falls back to the git-made copy where an overlay cannot serve the workspace (a linked worktree), and says why', async () => {
    await files({ 'a.txt': 'a\n' });
    commitAll(folder);
    const worktree = path.join(base, 'worktree');
    execFileSync('git', ['worktree', 'add', '-q', worktree], { cwd: folder });
    const trees = new ScratchCopies({ workspaceRoot: worktree, directory: scratch });
    const copy = await trees.acquire('t1');
    expect(copy.kind).toBe('git');
    expect(trees.overlayUnavailable).toContain('git directory outside its folder');
    await copy.prepare([{ path: 'a.txt', content: 'proposed\n' }]);
    expect(run(copy, 'cat a.txt')).toBe('proposed\n');
    trees.release('t1', copy);
    await trees.dispose();
    // Layers inside one another are refused by the kernel: a scratch directory inside the workspace.
    const inside = new ScratchCopies({ workspaceRoot: folder, directory: path.join(folder, '.scratch') });
    expect((await inside.acquire('t2')).kind).toBe('git');
    expect(inside.overlayUnavailable).toContain('inside one another');
    await inside.dispose();
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
