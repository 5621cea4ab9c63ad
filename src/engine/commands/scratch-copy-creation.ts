/**
 * Making a scratch copy of the workspace, where commands run instead of in the user's folder.
 *
 * In a git repository: a checkout of HEAD made by git in a repository of its own that borrows the user's
 * objects read-only (`objects/info/alternates`, as `git clone --shared` does), then the working tree's
 * changes (modified, deleted and untracked files that are not ignored) copied over and staged there. Git
 * writes 20,000 files in about a second. Nothing is written to the user's repository: no worktree entry,
 * no object, no lock (`git worktree add` would leave an entry behind whenever the editor died mid-run).
 * `git status` and `git diff HEAD` work inside the copy, and show the working tree's changes and the
 * proposals against the user's HEAD.
 *
 * Anywhere else (no repository, or one without a commit yet): git copies the folder through an index of
 * its own kept outside the copy, which honours .gitignore just as it would in a repository.
 *
 * Dependency folders that are ignored (`node_modules`, `.venv`, `venv`) are linked, not copied: copying
 * 100,000 files per copy is too slow, and without them no test runs. They are the one way a command still
 * reaches the user's folder, documented as such.
 */
import { copyFile, lstat, mkdir, mkdtemp, readFile, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type Git, splitNul } from './git-runner.js';

/** Ignored folders linked from the user's folder instead of copied. */
export const linkedDirectoryNames: ReadonlySet<string> = new Set(['node_modules', '.venv', 'venv']);

/** What a finished copy is made of; `ScratchCopy` works on it. */
export interface ScratchLayout {
  kind: 'git' | 'folder';
  /** The directory that holds everything of this copy (removed with it). */
  root: string;
  /** The copy of the repository's top level (or of the folder). */
  workTop: string;
  /** The workspace's place under `workTop`: '' or `sub/dir/`. */
  prefix: string;
  /** Environment for git in the copy (the folder kind's git directory lives outside the copy). */
  gitEnvironment: Record<string, string>;
  /** The index as made, restored when a command changed it (`git add` in the copy). */
  baselineIndex: string;
  indexPath: string;
  /** The commit HEAD names (git kind: the user's HEAD; folder kind: the copy as made). */
  head: string;
  /** Linked dependency folders, relative to `workTop`. */
  linked: string[];
  /** Real paths outside the copy that commands in it read: the linked folders' targets, the borrowed git objects. */
  readOutside: string[];
}

export async function createScratchLayout(workspaceRoot: string, directory: string, git: Git): Promise<ScratchLayout> {
  const folder = await realpath(workspaceRoot);
  await mkdir(directory, { recursive: true });
  const root = await mkdtemp(join(directory, `${process.pid}-`));
  try {
    const repository = await repositoryOf(folder, git);
    return repository ? await copyRepository(folder, root, repository, git) : await copyFolder(folder, root, git);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

interface Repository {
  top: string;
  prefix: string;
  head: string;
  objects: string[];
}

/** The repository `folder` is in, when it is in one with a commit. */
async function repositoryOf(folder: string, git: Git): Promise<Repository | undefined> {
  let fields: string[];
  try {
    fields = (
      await git(['rev-parse', '--show-toplevel', '--show-prefix', '--git-common-dir', '--verify', '-q', 'HEAD^{commit}'], { cwd: folder })
    )
      .toString('utf8')
      .split('\n');
  } catch {
    return undefined;
  }
  const [top, prefix, commonDirectory, head] = fields;
  if (!top || !head || !/^[0-9a-f]{40,64}$/.test(head)) return undefined;
  const objects = resolve(folder, commonDirectory, 'objects');
  // The user's own alternates (a `clone --shared` of another) must be borrowed too.
  const alternates = await readFile(join(objects, 'info', 'alternates'), 'utf8').catch(() => '');
  const borrowed = alternates
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => (isAbsolute(line) ? line : resolve(objects, line)));
  return { top: await realpath(top), prefix, head, objects: [objects, ...borrowed] };
}

async function copyRepository(folder: string, root: string, repository: Repository, git: Git): Promise<ScratchLayout> {
  const workTop = join(root, 'work');
  await mkdir(workTop);
  // No template: the user's init.templateDir could bring hooks along.
  await git(['init', '-q', '--template=', workTop], { cwd: root });
  // Later statuses skip folders whose contents did not change.
  await git(['config', 'core.untrackedCache', 'true'], { cwd: workTop });
  await mkdir(join(workTop, '.git', 'objects', 'info'), { recursive: true });
  await writeFile(join(workTop, '.git', 'objects', 'info', 'alternates'), `${repository.objects.join('\n')}\n`);
  const inCopy = { cwd: workTop };
  await git(['read-tree', repository.head], inCopy);
  await git(['checkout-index', '-a', '-f', '-u'], inCopy);
  await git(['update-ref', '--no-deref', 'HEAD', repository.head], inCopy);
  await copyWorkingTreeChanges(repository.top, workTop, git);
  const linked = await linkDependencies(repository.top, workTop, {}, git);
  await mkdir(join(workTop, '.git', 'info'), { recursive: true });
  await writeFile(join(workTop, '.git', 'info', 'exclude'), linked.map((path) => `/${path}\n`).join(''));
  await git(['add', '-A'], inCopy);
  const readOutside = [...repository.objects, ...linked.map((path) => join(repository.top, path))];
  return finishLayout(
    {
      kind: 'git',
      root,
      workTop,
      prefix: repository.prefix,
      gitEnvironment: {},
      indexPath: join(workTop, '.git', 'index'),
      head: repository.head,
      linked,
      readOutside,
    },
    git,
  );
}

/** Copies what `git status` in the user's repository lists: the working tree's own changes. */
async function copyWorkingTreeChanges(top: string, workTop: string, git: Git): Promise<void> {
  const records = splitNul(
    await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'], { cwd: top }),
  );
  for (const record of records) {
    const path = record.slice(3);
    const source = join(top, path);
    const target = join(workTop, path);
    const stat = await lstat(source).catch(() => undefined);
    if (!stat) {
      await rm(target, { recursive: true, force: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await rm(target, { recursive: true, force: true });
    if (stat.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (stat.isFile()) await copyFile(source, target);
  }
}

async function copyFolder(folder: string, root: string, git: Git): Promise<ScratchLayout> {
  const workTop = join(root, 'work');
  const gitDirectory = join(root, 'git');
  await mkdir(workTop);
  const environment = { GIT_DIR: gitDirectory };
  await git(['init', '-q', '--template='], { cwd: root, environment });
  await git(['config', 'core.bare', 'false'], { cwd: root, environment });
  await git(['config', 'core.untrackedCache', 'true'], { cwd: root, environment });
  await mkdir(join(gitDirectory, 'info'), { recursive: true });
  // A folder without a .gitignore still must not copy its dependencies, or another repository's insides.
  await writeFile(join(gitDirectory, 'info', 'exclude'), [...linkedDirectoryNames].map((name) => `${name}/\n`).join('') + '.git/\n');
  const fromFolder = { ...environment, GIT_WORK_TREE: folder };
  const inCopy = { ...environment, GIT_WORK_TREE: workTop };
  await git(['add', '-A'], { cwd: folder, environment: fromFolder });
  const linked = await linkDependencies(folder, workTop, fromFolder, git);
  await git(['checkout-index', '-a', '-f', '-u'], { cwd: workTop, environment: inCopy });
  // HEAD names the copy as made, so `git status` lists only what differs from it.
  const tree = (await git(['write-tree'], { cwd: workTop, environment: inCopy })).toString('utf8').trim();
  const identity = {
    GIT_AUTHOR_NAME: 'Agent Team',
    GIT_AUTHOR_EMAIL: 'agent-team@localhost',
    GIT_COMMITTER_NAME: 'Agent Team',
    GIT_COMMITTER_EMAIL: 'agent-team@localhost',
  };
  const head = (await git(['commit-tree', tree, '-m', 'scratch copy'], { cwd: workTop, environment: { ...inCopy, ...identity } }))
    .toString('utf8')
    .trim();
  await git(['update-ref', '--no-deref', 'HEAD', head], { cwd: workTop, environment: inCopy });
  await appendExcludes(join(gitDirectory, 'info', 'exclude'), linked);
  const readOutside = linked.map((path) => join(folder, path));
  return finishLayout(
    {
      kind: 'folder',
      root,
      workTop,
      prefix: '',
      gitEnvironment: inCopy,
      indexPath: join(gitDirectory, 'index'),
      head,
      linked,
      readOutside,
    },
    git,
  );
}

async function appendExcludes(file: string, linked: readonly string[]): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => '');
  await writeFile(file, current + linked.map((path) => `/${path}\n`).join(''));
}

/** Links the ignored dependency folders of `source` into the copy; returns their paths. */
async function linkDependencies(source: string, workTop: string, environment: Record<string, string>, git: Git): Promise<string[]> {
  const listing = splitNul(
    await git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { cwd: source, environment }),
  );
  const linked: string[] = [];
  for (const entry of listing) {
    const path = entry.replace(/\/$/, '');
    const name = path.split('/').at(-1) ?? '';
    if (!entry.endsWith('/') || !linkedDirectoryNames.has(name)) continue;
    const target = join(workTop, path);
    await mkdir(dirname(target), { recursive: true });
    await rm(target, { recursive: true, force: true });
    await symlink(join(source, path), target, 'dir');
    linked.push(path);
  }
  return linked;
}

async function finishLayout(layout: Omit<ScratchLayout, 'baselineIndex'>, git: Git): Promise<ScratchLayout> {
  // Stat information for every file now, so each later `git status` only looks at what changed.
  await git(['update-index', '-q', '--refresh'], { cwd: layout.workTop, environment: layout.gitEnvironment }).catch(() => undefined);
  const baselineIndex = join(layout.root, 'baseline-index');
  await copyFile(layout.indexPath, baselineIndex);
  return { ...layout, baselineIndex };
}
