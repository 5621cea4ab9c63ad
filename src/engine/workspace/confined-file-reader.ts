/**
 * The one confined reader: every file whose content the engine takes as orders or settings without an
 * agent asking for it (instruction files, role files, hooks' settings files; later skills and prompt
 * files) is read through it, by the same rules as the `Read` tool. A name is judged by where it really
 * leads (every link along it followed), so `AGENTS.md -> .env` is refused as `.env` is:
 * - inside the folder (the workspace, or the home for the user's own files), or refused;
 * - not a file that may hold secrets (`.env*`, keys, `.agent-team/runs`, `.git/config`: the policy's
 *   sensitive patterns), by its own name or by where it leads;
 * - a link into version-control internals (`.git/`) is refused;
 * - a link to a file git ignores is refused. A file read by its own name is read although ignored:
 *   `CLAUDE.local.md` and `.claude/settings.local.json` are the user's own, git-ignored by convention.
 *   A committed link that points at an ignored file is how a repository reaches what only this machine
 *   has (`secrets.yaml`, `credentials.json`, a `.envrc`): nobody writes a link to an ignored file of
 *   their own for instructions, so the link is what is refused;
 * - then opened without following a link at its end and without waiting on a FIFO, checked again where
 *   the kernel opened it (`NodeConfinement.openResolved`), a regular file only, at most `maxBytes` read.
 * A refusal names the rule, never the content. Later readers (skills, prompt files) take the same
 * shape: `new ConfinedFileReader(root).read('.claude/skills/x/SKILL.md', maxBytes)`, then the text, no
 * file, or a refusal to show as `notReadProblem(label, refused)`.
 */
import { closeSync } from 'node:fs';
import { errorMessage, WorkspaceError } from '../errors.js';
import { type BoundedText, readBoundedOpen } from './bounded-read.js';
import { isGitIgnored } from './git-ignored.js';
import { NodeConfinement } from './node-confinement.js';
import { defaultWorkspacePolicy, policyMatcher, type PolicyMatcher, type WorkspacePolicy } from './policy.js';

/** A file read; undefined when there is no such file; `refused` (with why) when it is not read. */
export type ConfinedReadOutcome = { read: BoundedText } | { refused: string } | undefined;

export interface ConfinedFileReaderOptions {
  /** The sensitive and protected patterns, and whether .gitignore counts. Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
  /** How the folder is named in a refusal. Default: `the workspace`. */
  folderName?: string;
  /**
   * Refuse a link to a git-ignored file. Default: true. The user's home is read with false: it is no
   * repository someone else wrote, and a home kept in git often ignores everything (`*`), which would
   * refuse every link a user made to their own dotfiles.
   */
  refuseLinksToIgnored?: boolean;
}

export class ConfinedFileReader {
  private readonly matcher: PolicyMatcher;
  private readonly folderName: string;
  private readonly refuseLinksToIgnored: boolean;
  private confinement: NodeConfinement | null | undefined;

  constructor(
    readonly root: string,
    options: ConfinedFileReaderOptions = {},
  ) {
    this.matcher = policyMatcher(options.policy ?? defaultWorkspacePolicy);
    this.folderName = options.folderName ?? 'the workspace';
    this.refuseLinksToIgnored = (options.refuseLinksToIgnored ?? true) && this.matcher.policy.respectGitignore;
  }

  /** `relative` (`/`-separated, inside the folder), at most `maxBytes` of it (`cut` says when there was more). */
  async read(relative: string, maxBytes: number): Promise<ConfinedReadOutcome> {
    const confinement = this.confined();
    if (confinement === null) return undefined;
    let real: string;
    try {
      const resolved = await confinement.resolveReal(relative);
      if (resolved.dangling) return undefined;
      real = resolved.path;
    } catch (error) {
      if (error instanceof WorkspaceError && error.kind === 'outside-workspace')
        return { refused: `it is (or lies under) a symbolic link that leads outside ${this.folderName}` };
      return { refused: errorMessage(error) };
    }
    const rule = await this.brokenRule(confinement, relative, real);
    if (rule !== undefined) return { refused: rule };
    let opened: { fd: number; real: string } | null;
    try {
      opened = confinement.openResolved(real);
    } catch (error) {
      return { refused: errorMessage(error) };
    }
    if (opened === null) return undefined;
    if (confinement.toRealRelative(opened.real) !== real) {
      // A link swapped in along the path since it was judged: what was judged is not what was opened.
      closeSync(opened.fd);
      return { refused: 'it changed (a link along it) while it was being read, so nothing was read' };
    }
    try {
      return { read: await readBoundedOpen(opened.fd, maxBytes) };
    } catch (error) {
      return { refused: errorMessage(error) };
    } finally {
      closeSync(opened.fd);
    }
  }

  /** Which of `Read`'s rules reading `typed`, which leads to `real`, would break; undefined when none. */
  private async brokenRule(confinement: NodeConfinement, typed: string, real: string): Promise<string | undefined> {
    const own = this.matcher.sensitivePattern(typed);
    if (own !== undefined) return `it may hold secrets (it matches ${own}), and such files are never read`;
    if (this.matcher.isProtected(typed)) return 'it is version-control internals, which are never read';
    if (real === typed) return undefined;
    const target = this.matcher.sensitivePattern(real);
    if (target !== undefined)
      return `it is a symbolic link to ${real}, which may hold secrets (it matches ${target}); such files are never read, under any name`;
    if (this.matcher.isProtected(real)) return `it is a symbolic link to ${real}, which is version-control internals; they are never read`;
    if (this.refuseLinksToIgnored && (await isGitIgnored(confinement, real))) {
      return `it is a symbolic link to ${real}, which git ignores; a link to an ignored file is not read (ignored files are where this machine's own secrets live)`;
    }
    return undefined;
  }

  private confined(): NodeConfinement | null {
    if (this.confinement !== undefined) return this.confinement;
    try {
      this.confinement = new NodeConfinement(this.root);
    } catch {
      // No such folder: nothing in it to read.
      this.confinement = null;
    }
    return this.confinement;
  }
}

/** `file was not read: why`, the form every reader's problems take (the CLI shows them on stderr). */
export function notReadProblem(label: string, reason: string): string {
  return `${label}${notReadMarker}${reason}`;
}

/** What a problem from `notReadProblem` contains, for the CLI to find them. */
export const notReadMarker = ' was not read: ';
