/**
 * Which sites agents may read with WebFetch in VS Code: `agentTeam.allowedDomains` from the user's own
 * settings (a folder must not open its agents' way out), the sites allowed "Always for this workspace"
 * (kept in the workspace's storage), and a question for any other, answered in a notification while the
 * task shows `waiting`. A stop while the question is open counts as "Deny".
 */
import * as vscode from 'vscode';
import { type DomainDecision, type DomainRequest, normalHost, type WebHost } from '../engine/index.js';
import { readSettings } from './configuration.js';

const workspaceDomainsKey = 'agentTeam.allowedDomains.workspace';

export class HostWebApproval implements Omit<WebHost, 'clock'> {
  readonly howToAllow = 'The user allows sites with the setting agentTeam.allowedDomains.';

  constructor(private readonly workspaceState: vscode.Memento) {}

  allowedDomains(): readonly string[] {
    return [...readSettings(vscode.workspace.isTrusted).allowedDomains, ...this.workspaceDomains()];
  }

  async ask(request: DomainRequest, signal: AbortSignal): Promise<DomainDecision> {
    const once = vscode.l10n.t('Allow once');
    const always = vscode.l10n.t('Always for this workspace');
    const deny = vscode.l10n.t('Deny');
    const question = vscode.window.showWarningMessage(
      vscode.l10n.t('The {0} ({1}) wants to read {2} from {3}.', request.role, request.taskId, visibleUrl(request.url), request.host),
      once,
      always,
      deny,
    );
    const stopped = new Promise<undefined>((resolve) => {
      if (signal.aborted) resolve(undefined);
      else signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    const picked = await Promise.race([question, stopped]);
    if (picked === always) {
      await this.remember(request.host);
      return 'always';
    }
    return picked === once ? 'once' : 'deny';
  }

  private workspaceDomains(): string[] {
    const stored = this.workspaceState.get<unknown>(workspaceDomainsKey);
    return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
  }

  private async remember(host: string): Promise<void> {
    const known = this.workspaceDomains();
    const pattern = normalHost(host);
    if (!known.includes(pattern)) await this.workspaceState.update(workspaceDomainsKey, [...known, pattern]);
  }
}

/** The address as the question shows it: printable, and not longer than a line. */
function visibleUrl(url: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = url.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  return printable.length > 120 ? `${printable.slice(0, 119)}…` : printable;
}
