/**
 * The workspace tools of each task over one `Workspace`, each task with its own change set in a shared
 * registry, so parallel tasks' proposals to one file are flagged on both.
 *
 * Stacked proposals: a task reads the workspace through the pending proposals of every task of its tree
 * that ended before it started, in the order they ended, so a reviewer after a refactorer reviews the
 * refactorer's actual (unaccepted) edit. Each earlier change set is one more `ChangeSetWorkspace` layer
 * under the task's own. The task's own edits are proposed against what it saw: applying one that builds
 * on an earlier proposal the user rejected is a conflict (its base is not on disk), never half applied.
 */
import type { ChangeSet } from '../changes/change-set.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import { describeOverlaps } from '../changes/overlap-note.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { isTerminal } from '../tasks/types.js';
import { ChangeSetWorkspace } from './change-set-workspace.js';
import { PathRules } from '../workspace/path-rules.js';
import { defaultWorkspacePolicy, type WorkspacePolicy } from '../workspace/policy.js';
import { createWorkspaceTools } from './tools/create-workspace-tools.js';
import type { Workspace } from '../workspace/workspace.js';
import type { ProposedFile, WorkspaceToolbox } from './task-tools.js';

export interface WorkspaceToolboxOptions {
  workspace: Workspace;
  changes: ChangeSetRegistry;
  /** Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
  /** Where the tree of each task is found, for stacked proposals. Default: none (each task sees only the disk and its own proposals). */
  taskManager?: TaskManager;
}

export function createWorkspaceToolbox(options: WorkspaceToolboxOptions): WorkspaceToolbox {
  const policy = options.policy ?? defaultWorkspacePolicy;
  return ({ taskId, role, changeSetOf }) => {
    const owner = changeSetOf ?? taskId;
    const changeSet = options.changes.get(owner) ?? options.changes.createWhenUsed(owner, role);
    // The change set it works in is its own top layer, never one of the stacked ones below it.
    const earlier = earlierChangeSets(options, taskId).filter((other) => other !== changeSet);
    const stacked = earlier.reduce<Workspace>((inner, layer) => new ChangeSetWorkspace(inner, layer, policy), options.workspace);
    const tools = createWorkspaceTools({ workspace: stacked, changeSet, policy });
    return {
      readOnly: tools.readOnly,
      edit: tools.edit,
      proposals: async () => commandView(options.workspace, policy, visibleProposals([...earlier, changeSet])),
    };
  };
}

/**
 * What a command in the scratch copy sees where it differs from the disk: the editors' unsaved text (the
 * agents read it too; a secret's is left out, as Read leaves it out), then the proposals over it (a
 * proposal to a file with unsaved changes was made on them).
 */
function commandView(workspace: Workspace, policy: WorkspacePolicy, proposals: ProposedFile[]): ProposedFile[] {
  const unsaved = workspace.unsavedFiles?.() ?? [];
  if (unsaved.length === 0) return proposals;
  const rules = new PathRules(policy);
  const readable = unsaved.filter((file) => {
    try {
      rules.assertReadable(file.path, file.path);
      return true;
    } catch {
      return false;
    }
  });
  const proposed = new Set(proposals.map((file) => file.path));
  return [...readable.filter((file) => !proposed.has(file.path)), ...proposals];
}

/**
 * The files as a task sees them where they differ from the disk: each layer's open proposals, the later
 * layers' over the earlier ones (a later proposal was made on top of the earlier, so it already holds it).
 * A proposal to a symbolic link lands on the link's target, as applying it would.
 */
export function visibleProposals(layers: readonly ChangeSet[]): ProposedFile[] {
  const files = new Map<string, string>();
  for (const layer of layers) {
    for (const path of layer.openPaths()) {
      const content = layer.proposedContent(path);
      if (content !== undefined) files.set(layer.fileChange(path).target ?? path, content);
    }
  }
  return [...files].map(([path, content]) => ({ path, content }));
}

/** The change sets of the tasks of `taskId`'s tree that ended before it started, oldest end first. */
export function earlierChangeSets(options: Pick<WorkspaceToolboxOptions, 'changes' | 'taskManager'>, taskId: string): ChangeSet[] {
  const task = options.taskManager?.get(taskId);
  if (!options.taskManager || !task) return [];
  const startedAt = task.startedAt ?? task.createdAt;
  return options.taskManager
    .treeOf(task.rootId)
    .filter((other) => other.id !== task.id && isTerminal(other.status) && (other.endedAt ?? Infinity) <= startedAt)
    .sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0))
    .flatMap((other) => {
      const earlier = options.changes.get(other.id);
      return earlier && earlier.openPaths().length > 0 ? [earlier] : [];
    });
}

/** "Proposed edits awaiting review: a.ts (+3 −1), b.ts (+10 −0)", for the parent that delegated the task. */
export function describeTaskChanges(changes: ChangeSetRegistry, taskId: string): string | undefined {
  const files =
    changes
      .get(taskId)
      ?.snapshot()
      .files.filter((file) => file.status === 'pending') ?? [];
  if (files.length === 0) return undefined;
  // An overlap says whether the two proposals fit together, so the parent can sequence work on one file.
  const list = files.map((file) => `${file.path} (+${file.added} −${file.removed}${describeOverlaps(changes, taskId, file.path)})`);
  return `Proposed edits awaiting the user's review (nothing is written yet): ${list.join(', ')}.`;
}
