/**
 * What a command runs in: the workspace as one task sees it, whatever makes it. Two kinds do: an overlay
 * (overlay/overlay-copy.ts: the workspace itself as a read-only lower layer, the task's proposals and the
 * command's writes in an upper layer of their own, mounted in the command's private mount namespace) and,
 * where the kernel does not allow that, a git-made copy (scratch-copy.ts). Both keep the same promises:
 * the user's folder is never written, the command sees the task's proposals, and what it changed is told
 * afterwards.
 */
import type { ProposedFile } from '../file-tools/task-tools.js';
import type { CommandLaunch } from './sandbox/command-launch.js';

/** `overlay`: the copy-on-write view; `git` / `folder`: the git-made copy of a repository / of a plain folder. */
export type CommandCopyKind = 'overlay' | 'git' | 'folder';

export interface CommandCopy {
  readonly kind: CommandCopyKind;
  /** The directory commands run in: the workspace's place in the copy. */
  readonly cwd: string;
  /** What the OS sandbox lets a command in this copy touch: the copy itself, and what it reads outside it. */
  readonly sandboxPaths: { writable: string[]; readOnly: string[] };
  /** Dependency folders linked from the user's folder (writes there reach it), workspace-relative. */
  readonly linked: string[];
  /** Brings the copy to the workspace plus `proposals`, whatever the last command did. */
  prepare(proposals: readonly ProposedFile[], signal?: AbortSignal): Promise<void>;
  /** The launch that runs the command in this copy's view (the overlay mounts it first; a git copy needs nothing). */
  launch(launch: CommandLaunch): CommandLaunch;
  /** The files the last command changed (workspace-relative, sorted), other than the proposals written for it. */
  changedFiles(signal?: AbortSignal): Promise<string[]>;
  /** Where a file the last command changed can be read afterwards (a deleted one is missing, or not a file). */
  changedFilePath(path: string): string;
  remove(): Promise<void>;
}

/** One line for the command's result: which kind of copy it ran in (and why not an overlay, when known). */
export function describeCopyKind(kind: CommandCopyKind, overlayUnavailable?: string): string {
  if (kind === 'overlay') return 'Ran in: a copy-on-write overlay of the workspace.';
  return `Ran in: a git-made copy of the workspace${overlayUnavailable ? ` (no overlay: ${overlayUnavailable.slice(0, 200)})` : ''}.`;
}
