/**
 * The workspace tools of each task over one `Workspace`, each task with its own change set in a shared
 * registry, so parallel tasks' proposals to one file are flagged on both.
 */
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { WorkspacePolicy } from '../workspace/policy.js';
import { createWorkspaceTools } from '../workspace/tools/create-workspace-tools.js';
import type { Workspace } from '../workspace/workspace.js';
import type { WorkspaceToolbox } from './task-tools.js';

export interface WorkspaceToolboxOptions {
  workspace: Workspace;
  changes: ChangeSetRegistry;
  /** Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
}

export function createWorkspaceToolbox(options: WorkspaceToolboxOptions): WorkspaceToolbox {
  return ({ taskId, role }) => {
    const changeSet = options.changes.get(taskId) ?? options.changes.create(taskId, role);
    const tools = createWorkspaceTools({ workspace: options.workspace, changeSet, policy: options.policy });
    return { readOnly: tools.readOnly, edit: tools.edit };
  };
}

/** "Proposed edits awaiting review: a.ts (+3 −1), b.ts (+10 −0)", for the parent that delegated the task. */
export function describeTaskChanges(changes: ChangeSetRegistry, taskId: string): string | undefined {
  const files = changes.get(taskId)?.snapshot().files.filter((file) => file.status === 'pending') ?? [];
  if (files.length === 0) return undefined;
  const list = files.map((file) => `${file.path} (+${file.added} −${file.removed}${file.overlapsWith.length ? `, overlaps with task ${file.overlapsWith.join(', ')}` : ''})`);
  return `Proposed edits awaiting the user's review (nothing is written yet): ${list.join(', ')}.`;
}
