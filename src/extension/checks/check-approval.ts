/**
 * The user's approval of the repository's checks in VS Code (issue 40): checks are the repository's code,
 * so they run only in a trusted folder and once the user allowed exactly these commands, "once" (this
 * verdict) or "always" for this workspace. "Always" is kept in the extension's workspace storage (never in
 * the folder's settings, which the folder's authors control) as a fingerprint of every check's name and
 * command: a check added or changed asks again. The question is a notification, not a modal: the checks
 * run beside the review and must not stop the user reviewing meanwhile.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { CheckApprovalRequest } from '../../engine/checks/types.js';

/** Where "Always for this workspace" approvals are kept (`ExtensionContext.workspaceState`). */
export const approvedChecksKey = 'agentTeam.approvedChecks';

export const allowOnce = 'Allow Once';
export const allowAlways = 'Always for This Workspace';
export const dontRun = "Don't Run";

export class HostCheckApproval {
  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly trusted: () => boolean = () => vscode.workspace.isTrusted,
  ) {}

  /** True when the checks may run: the folder is trusted and the user allowed them (now or always). */
  async approve(request: CheckApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    if (!this.trusted() || request.checks.length === 0) return false;
    const fingerprint = checksFingerprint(request.checks);
    if (this.remembered().includes(fingerprint)) return true;
    const listed = request.checks.map((check) => `${check.name}: \`${check.command}\` (${check.source})`).join('; ');
    const question = vscode.l10n.t("Run the repository's checks on the proposals of run {0}? They run in the OS sandbox on a scratch copy with the proposals applied: {1}", request.runId, listed);
    const answer = new Promise<string | undefined>((resolve) => {
      void vscode.window.showInformationMessage(question, allowOnce, allowAlways, dontRun).then(resolve);
      // A newer run of the checks (or the window closing) withdraws the question: not run.
      signal?.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    const choice = await answer;
    if (choice === allowAlways) await this.workspaceState.update(approvedChecksKey, [...this.remembered(), fingerprint]);
    return choice === allowOnce || choice === allowAlways;
  }

  private remembered(): string[] {
    const stored = this.workspaceState.get<unknown>(approvedChecksKey);
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  }
}

/** The same checks, whatever their order, give the same fingerprint; any change of a name or command another. */
export function checksFingerprint(checks: CheckApprovalRequest['checks']): string {
  const lines = checks.map((check) => JSON.stringify([check.name, check.command])).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
