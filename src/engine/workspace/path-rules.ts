import { WorkspaceError } from '../errors.js';
import { manifestApprovalReason } from './package-manifest.js';
import { defaultWorkspacePolicy, policyMatcher, type PolicyMatcher, type WorkspacePolicy } from './policy.js';

/**
 * The policy's rules applied to both names of a file: the path as typed and the path it really leads to
 * (`Workspace.realPath`). Each rule holds when either name matches, so `notes.txt -> .env` is as secret
 * as `.env`, and `hooks/pre-push` with `hooks -> .git/hooks` as unwritable as `.git/hooks/pre-push`.
 * `real` equal to `typed` means no link is involved; the messages then read as they always did.
 */
export class PathRules {
  readonly matcher: PolicyMatcher;

  constructor(policy: WorkspacePolicy = defaultWorkspacePolicy) {
    this.matcher = policyMatcher(policy);
  }

  /** Throws `sensitive` when either name may hold secrets. */
  assertReadable(typed: string, real: string): void {
    const own = this.matcher.sensitivePattern(typed);
    if (own !== undefined) {
      throw new WorkspaceError(
        'sensitive',
        `${typed} may hold secrets (it matches ${own}), so agents do not read it. If it is safe, allow it by adding it to the workspace policy's allowedSensitivePatterns.`,
        typed,
      );
    }
    const target = real === typed ? undefined : this.matcher.sensitivePattern(real);
    if (target !== undefined) {
      throw new WorkspaceError(
        'sensitive',
        `${typed} is a symbolic link to ${real}, which may hold secrets (it matches ${target}), so agents do not read it, under either name.`,
        typed,
      );
    }
  }

  /** Throws `read-only` when either name is version-control internals. */
  assertWritable(typed: string, real: string): void {
    if (this.matcher.isProtected(typed)) {
      throw new WorkspaceError('read-only', `${typed} is version-control internals; agents cannot change it.`, typed);
    }
    if (real !== typed && this.matcher.isProtected(real)) {
      throw new WorkspaceError(
        'read-only',
        `${typed} leads through a symbolic link to ${real}, which is version-control internals; agents cannot change it.`,
        typed,
      );
    }
  }

  /**
   * True when a search or listing leaves the file out: secrets, and what a link brings in from the
   * version-control internals that walks skip (a link is the only way a walk reaches them unasked).
   */
  hidesFromSearch(typed: string, real: string): boolean {
    if (this.matcher.sensitivePattern(typed) !== undefined) return true;
    if (real === typed) return false;
    return this.matcher.sensitivePattern(real) !== undefined || this.matcher.isProtected(real);
  }

  /**
   * Why writing `after` over `before` needs the user's explicit approval, or undefined when it does not:
   * configuration that runs code or grants permissions, secret files (they change what tools run), and
   * a package manifest whose change can run code (package-manifest.ts). See the policy's comment.
   */
  approvalReason(typed: string, real: string, before: string | null, after: string | null): string | undefined {
    for (const name of real === typed ? [typed] : [typed, real]) {
      const through = name === typed ? 'it' : `it leads to ${name}, which`;
      if (this.matcher.requiresApproval(name)) return `${through} is configuration that can run code or change permissions`;
      if (this.matcher.sensitivePattern(name) !== undefined) return `${through} may hold secrets`;
      const manifestReason = this.matcher.guardsScripts(name) ? manifestApprovalReason(before, after) : undefined;
      if (manifestReason !== undefined) return name === typed ? manifestReason : `${through} is a package manifest, and ${manifestReason}`;
    }
    return undefined;
  }

  requiresApproval(typed: string, real: string, before: string | null, after: string | null): boolean {
    return this.approvalReason(typed, real, before, after) !== undefined;
  }
}

/** `vsc/tasks.json -> .vscode/tasks.json`, or just the path when no link is involved. */
export function describeLink(typed: string, real: string | undefined): string {
  return real === undefined || real === typed ? typed : `${typed} -> ${real}`;
}
