/**
 * Which kind of scratch copy a command gets, and the copy made: an overlay view where this machine can
 * mount one (found once by trying, overlay-support.ts), else a git-made copy; and the copies a crashed
 * editor left behind, removed by the next one that starts.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import { isProcessAlive } from '../process-alive.js';
import type { CommandCopy } from './command-copy.js';
import type { GitRunner } from './git-runner.js';
import { OverlayCopy } from './overlay/overlay-copy.js';
import { overlaySupport } from './overlay/overlay-support.js';
import { ScratchCopy } from './scratch-copy.js';

export type ScratchCopyKind = 'auto' | 'overlay' | 'git';

export interface MadeCopy {
  copy: CommandCopy;
  /** Why the copy is not an overlay (for the trace): undefined when it is one; absent when none was tried (`git`). */
  overlayUnavailable?: string | undefined;
}

/** A copy of `workspaceRoot` in `directory` of the kind asked for (ScratchCopiesOptions.kind). */
export async function makeScratchCopy(workspaceRoot: string, directory: string, kind: ScratchCopyKind, git: GitRunner): Promise<MadeCopy> {
  if (!(await git.available()))
    throw new Error(
      'Not run: commands run in a scratch copy of the workspace, which needs git, and no git program was found on PATH. Tell the user to install git.',
    );
  try {
    if (kind === 'git') return { copy: await ScratchCopy.create(workspaceRoot, directory, git.git) };
    const overlay = await overlayCopy(workspaceRoot, directory, git);
    if (typeof overlay !== 'string') return { copy: overlay, overlayUnavailable: undefined };
    if (kind === 'overlay') throw new Error(`no overlay: ${overlay}`);
    return { copy: await ScratchCopy.create(workspaceRoot, directory, git.git), overlayUnavailable: overlay };
  } catch (error) {
    throw new Error(`Not run: the scratch copy of the workspace could not be made: ${errorMessage(error)}`, { cause: error });
  }
}

/** An overlay copy, or why there is none. */
async function overlayCopy(workspaceRoot: string, directory: string, git: GitRunner): Promise<OverlayCopy | string> {
  const support = await overlaySupport(directory);
  if (!support.available) return support.reason;
  try {
    return await OverlayCopy.create(workspaceRoot, directory, support.tools, git.git, git.oneCreation());
  } catch (error) {
    return errorMessage(error);
  }
}

/** Removes the copies of processes that are gone (their names start with the pid that made them). */
export async function removeLeftovers(directory: string): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      if (!Number.isInteger(pid) || pid === process.pid || isProcessAlive(pid)) return;
      await rm(join(directory, name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}
