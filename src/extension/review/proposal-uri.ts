/**
 * Addresses of proposed content: `agent-team-proposal:/src/app.ts?task=t3&side=proposed`. The file's
 * path is the URI path (so the editor picks the language from the extension); the task and the side
 * (`proposed`; `base`: the content the task started from; `previous`: the proposal before a revision)
 * are in the query.
 */
import * as vscode from 'vscode';
import { proposalScheme } from '../contribution-ids.js';
export { proposalScheme };

/** `previous`: what the proposal was before the user's last Request Changes (see revisions.ts). */
export type ProposalSide = 'proposed' | 'base' | 'previous';

export interface ProposalAddress {
  taskId: string;
  /** Workspace-relative POSIX path. */
  path: string;
  side: ProposalSide;
}

export function proposalUri(address: ProposalAddress): vscode.Uri {
  const query = new URLSearchParams({ task: address.taskId, side: address.side }).toString();
  return vscode.Uri.from({ scheme: proposalScheme, path: `/${address.path}`, query });
}

/** The address in a proposal URI; undefined for any other URI or a malformed one. */
export function parseProposalUri(uri: vscode.Uri): ProposalAddress | undefined {
  if (uri.scheme !== proposalScheme) return undefined;
  const query = new URLSearchParams(uri.query);
  const taskId = query.get('task');
  const side = query.get('side') ?? 'proposed';
  const path = uri.path.replace(/^\/+/, '');
  if (!taskId || path === '' || (side !== 'proposed' && side !== 'base' && side !== 'previous')) return undefined;
  return { taskId, path, side };
}
