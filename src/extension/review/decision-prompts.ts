/** The questions an accept asks first in VS Code: a sensitive file's approval, and a proposal still holding conflict markers. */
import * as vscode from 'vscode';
import { type FileChangeSnapshot, hasConflictMarkers } from '../../engine/index.js';
import { confirmModal } from '../notify.js';

/** Sensitive configuration is written only after the user says so, for this file, in a modal. */
export async function approveSensitive(file: FileChangeSnapshot): Promise<boolean> {
  if (!file.requiresApproval) return true;
  return confirmModal(
    vscode.l10n.t('Apply the proposed change to {0}?', file.path),
    vscode.l10n.t('Apply'),
    sensitiveChangeDetail(file.path, file.target),
  );
}

/**
 * A proposal with conflict markers the base did not have (a conflict's marked file, not yet resolved in
 * the diff editor) is written only if the user says so: markers in a source file rarely are what they meant.
 */
export async function markersConfirmed(file: FileChangeSnapshot): Promise<boolean> {
  if (!hasConflictMarkers(file.proposedContent) || (file.baseContent !== null && hasConflictMarkers(file.baseContent))) return true;
  return confirmModal(
    vscode.l10n.t('{0} still has conflict markers. Apply it with them?', file.path),
    vscode.l10n.t('Apply with Markers'),
    vscode.l10n.t('Edit the proposed side in the diff editor to keep one side (or both) of each conflict, save it, then accept.'),
  );
}

/** What the approval of a sensitive file says, whether it is applied here or committed on a branch. */
export function sensitiveChangeDetail(path: string, target?: string): string {
  return `${path}${target !== undefined ? ` (a symbolic link to ${target})` : ''} is configuration that can make VS Code, a task runner or CI run code, or change what agents may do. Apply it only if you have read the change.`;
}
