/**
 * Which folder an overlay copy overlays (overlay-copy.ts), and the checks on it: a repository's top when
 * its `.git` is a folder inside it, else the workspace itself; never a workspace another user owns (as
 * root). Also the early mask's guess: a workspace holding a `.git` folder is most often its top.
 */
import { lstat, realpath, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Git } from '../git-runner.js';
import { isInside } from '../sandbox/sandbox-policy.js';
import type { OverlayTools } from './overlay-launch.js';
import { buildMask, type Mask, type MaskedTree } from './overlay-mask.js';

/** True when `folder` holds a `.git` folder, and it and the copy's folder do not lie inside one another. */
export async function atRepositoryTop(folder: string, root: string): Promise<boolean> {
  if (isInside(root, folder) || isInside(folder, root)) return false;
  return (await lstat(join(folder, '.git')).catch(() => undefined))?.isDirectory() ?? false;
}

/** The mask built for the tree rev-parse found, in place of one built early for another. */
export async function rebuiltMask(tree: MaskedTree, folder: string, git: Git): Promise<Mask> {
  await rm(folder, { recursive: true, force: true });
  return buildMask(tree, folder, git);
}

/** The folder to overlay: the repository's top when the workspace is in one whose `.git` is a folder, else the workspace. */
export async function treeOf(folder: string, root: string, git: Git): Promise<{ tree: MaskedTree; prefix: string }> {
  const fields = await git(['rev-parse', '--show-toplevel', '--show-prefix', '--absolute-git-dir'], { cwd: folder }).then(
    (output) => output.toString('utf8').split('\n'),
    () => undefined,
  );
  if (fields) {
    const [top, prefix, gitDirectory] = fields;
    const realTop = await realpath(top ?? '');
    // A linked worktree's or a submodule's `.git` is a file naming a git directory elsewhere: what git
    // writes in the view would go there, outside the overlay. Those get the git-made copy.
    const realGitDirectory = await realpath(gitDirectory ?? '').catch(() => '');
    if (realGitDirectory !== join(realTop, '.git') || !(await lstat(join(realTop, '.git'))).isDirectory())
      throw new Error('the repository keeps its git directory outside its folder');
    return { tree: { top: realTop, repository: true }, prefix: prefix ?? '' };
  }
  return { tree: { top: folder, repository: false, gitDirectory: join(root, 'git') }, prefix: '' };
}

/**
 * As root, a workspace that belongs to another user (a host's checkout bind-mounted into a container):
 * in the sandbox root's command holds no capability, so through an overlay it could write none of that
 * user's files (the kernel checks the writer against the file's owner before copying it up). The
 * git-made copy is root's own, and writable. Judged by the workspace's folder alone.
 */
export async function refuseForeignOwner(top: string, tools: OverlayTools): Promise<void> {
  if (!tools.privileged) return;
  const owner = (await stat(top)).uid;
  if (owner !== tools.uid)
    throw new Error(
      `the workspace belongs to another user (uid ${owner}) than the one running agent-team (uid ${tools.uid}), whose sandboxed commands could not write its files through an overlay`,
    );
}
