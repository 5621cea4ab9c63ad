/**
 * The mask: a read-only layer between the workspace and each command's upper layer that takes away what a
 * scratch copy never held. Whiteouts hide the ignored files (`.env`, `dist/`) except dependency folders
 * (`node_modules`, `.venv`, `venv`: visible, and copy-on-write like the rest, so a write there no longer
 * reaches the user's folder), the metadata of nested repositories and `.git/modules`; a `.git/config` of
 * the repository's structural settings alone shadows the user's, whose remotes and credential helpers may
 * hold tokens. The user's index, HEAD, refs and objects stay visible read-only: `git status` and `git
 * diff` in the view show the user's own changes and the proposals, and what git writes is copied up.
 *
 * The workspace is live under it, so the mask must follow it: a new ignored file must be hidden from the
 * next command. What can make one appear is recorded (every folder walked, every `.gitignore`, the
 * repository's excludes and settings) and stat'ed before each command; a change rebuilds the mask (one
 * `git ls-files` and a walk: tens of milliseconds), an unchanged workspace costs those stats alone.
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Git, splitNul } from '../git-runner.js';
import { linkedDirectoryNames } from '../scratch-copy-creation.js';
import { isAtOrBelow, signature, walkAlongside } from './mask-walk.js';
import { makeWhiteouts } from './whiteouts.js';

/** The folder overlaid: a repository's top (its `.git` a folder), or a plain folder. */
export interface MaskedTree {
  top: string;
  repository: boolean;
  /** Plain folders only: a git directory of our own, to ask git what the folder's .gitignore files ignore. */
  gitDirectory?: string;
}

export interface Mask {
  folder: string;
  /** Hidden paths, top-relative: nothing at or below them is in the view. */
  hidden: ReadonlySet<string>;
  /** Ignored dependency folders, top-relative: in the view, but what a command changes there is not reported. */
  dependencies: readonly string[];
  /** Signatures of what decides which files are ignored, by absolute path. */
  watched: ReadonlyMap<string, string>;
}

/** The core settings a repository needs to be read right; none names a program, a remote or a credential. */
const structuralCoreSettings = new Set([
  'repositoryformatversion',
  'filemode',
  'bare',
  'logallrefupdates',
  'ignorecase',
  'precomposeunicode',
  'symlinks',
  'autocrlf',
  'eol',
  'safecrlf',
  'checkstat',
  'trustctime',
  'sparsecheckout',
  'sparsecheckoutcone',
  'splitindex',
  'untrackedcache',
  'quotepath',
  'protecthfs',
  'protectntfs',
]);

export async function buildMask(tree: MaskedTree, folder: string, git: Git): Promise<Mask> {
  await mkdir(folder, { recursive: true });
  // The settings are read while git lists the ignored files.
  const shadowed = tree.repository ? shadowGitSettings(tree.top, join(folder, '.git'), git) : Promise.resolve();
  // Awaited below; a failure before then must not go unhandled.
  shadowed.catch(() => undefined);
  // The folders are walked while git lists the ignored files (mask-walk.ts): the same walk, sooner.
  const split = ignoredEntries(tree, git).then((ignored) => {
    const dependencies = ignored.filter((path) => linkedDirectoryNames.has(path.split('/').at(-1) ?? ''));
    return { dependencies, hidden: new Set(ignored.filter((path) => !dependencies.includes(path))) };
  });
  const walked = walkAlongside(
    tree.top,
    split.then(({ hidden, dependencies }) => new Set([...hidden, ...dependencies, '.git'])),
  );
  const [{ dependencies, hidden }, { watched, nestedGit }] = await Promise.all([split, walked]);
  for (const path of nestedGit) hidden.add(path);
  if (tree.repository) {
    const gitDirectory = join(tree.top, '.git');
    // Not the index: editors rewrite it for stat information alone, and every command would rebuild the mask.
    for (const file of [join('info', 'exclude'), 'config', 'modules'])
      watched.set(join(gitDirectory, file), signature(join(gitDirectory, file)));
    if (await exists(join(gitDirectory, 'modules'))) hidden.add('.git/modules');
  }
  await shadowed;
  for (const file of globalExcludeFiles()) watched.set(file, signature(file));
  // One whiteout per hidden subtree: an entry below a hidden folder is hidden with it.
  const whiteouts = [...hidden]
    .filter((path) => !isBelowHidden(hidden, path))
    .sort()
    .map((path) => join(folder, path));
  await Promise.all(whiteouts.map((path) => mkdir(dirname(path), { recursive: true })));
  await makeWhiteouts(whiteouts);
  return { folder, hidden, dependencies, watched };
}

/** True when something that decides what is ignored changed since the mask was built. */
export function maskIsStale(mask: Mask): boolean {
  // Synchronous on purpose: a few hundred stats in a row cost under a millisecond, far less than as many
  // round trips through the thread pool.
  for (const [path, known] of mask.watched) if (signature(path) !== known) return true;
  return false;
}

/** True when `path` (top-relative) is hidden by the mask: it or a folder above it. */
export function isMasked(mask: Mask, path: string): boolean {
  return isAtOrBelow(mask.hidden, path);
}

function isBelowHidden(hidden: ReadonlySet<string>, path: string): boolean {
  for (let at = dirname(path); at !== '.' && at !== ''; at = dirname(at)) if (hidden.has(at)) return true;
  return false;
}

/** What git ignores in the tree, folders collapsed (`dist`, not its files), top-relative. */
async function ignoredEntries(tree: MaskedTree, git: Git): Promise<string[]> {
  const args = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'];
  if (tree.repository) return splitNul(await git(args, { cwd: tree.top })).map((entry) => entry.replace(/\/$/, ''));
  const gitDirectory = tree.gitDirectory as string;
  if (!(await exists(join(gitDirectory, 'HEAD')))) {
    await git(['init', '-q', '--template='], { cwd: tree.top, environment: { GIT_DIR: gitDirectory } });
    await mkdir(join(gitDirectory, 'info'), { recursive: true });
    // Another repository's insides inside a plain folder: its metadata is not the copy's to show.
    await writeFile(join(gitDirectory, 'info', 'exclude'), '.git\n');
  }
  return splitNul(await git(args, { cwd: tree.top, environment: { GIT_DIR: gitDirectory, GIT_WORK_TREE: tree.top } })).map((entry) =>
    entry.replace(/\/$/, ''),
  );
}

/** Writes the repository's structural settings alone where the view's `.git/config` is. */
async function shadowGitSettings(top: string, shadow: string, git: Git): Promise<void> {
  const gitDirectory = join(top, '.git');
  // Run at the top, where ls-files runs: a git that reads the configuration once per folder reads it once for both.
  const listing = await git(['config', '--file', join(gitDirectory, 'config'), '--null', '--get-regexp', '^(core|extensions|index)\\.'], {
    cwd: top,
  }).catch(() => Buffer.alloc(0));
  const sections = new Map<string, string[]>();
  for (const record of splitNul(listing)) {
    const newline = record.indexOf('\n');
    const key = newline === -1 ? record : record.slice(0, newline);
    const value = newline === -1 ? 'true' : record.slice(newline + 1);
    const [section, name] = [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)];
    if (!/^[a-z0-9-]+$/i.test(name) || (section === 'core' && !structuralCoreSettings.has(name.toLowerCase()))) continue;
    sections.set(section, [
      ...(sections.get(section) ?? []),
      `\t${name} = "${value.replace(/[\\"]/g, (character) => `\\${character}`).replace(/\n/g, '\\n')}"`,
    ]);
  }
  const text = [...sections].map(([section, lines]) => `[${section}]\n${lines.join('\n')}\n`).join('');
  await mkdir(shadow, { recursive: true });
  await writeFile(join(shadow, 'config'), text);
  // With extensions.worktreeConfig git reads this one too: shadowed empty.
  if (await exists(join(gitDirectory, 'config.worktree'))) await writeFile(join(shadow, 'config.worktree'), '');
}

/** Git's global excludes where git looks by default (a `core.excludesFile` set elsewhere is not followed). */
function globalExcludeFiles(): string[] {
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return [join(configHome, 'git', 'ignore')];
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}
