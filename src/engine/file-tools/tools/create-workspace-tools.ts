import { type Tool } from '../../agent/tool.js';
import { type ChangeSet } from '../../changes/change-set.js';
import { ChangeSetWorkspace } from '../change-set-workspace.js';
import { defaultWorkspacePolicy, type WorkspacePolicy } from '../../workspace/policy.js';
import { type Workspace } from '../../workspace/workspace.js';
import { createEditTool } from './edit-tool.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createReadTool } from './read-tool.js';
import { createWriteTool } from './write-tool.js';

export interface WorkspaceToolsOptions {
  /** The workspace on disk (host implementation). */
  workspace: Workspace;
  /** The task's change set: Edit and Write add to it, and Read, Grep and Glob see it. */
  changeSet: ChangeSet;
  /** Sensitive files, approval lists, size limits. Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
  /** Paths Glob lists at most per call. Default: 500. */
  globMaxResults?: number;
  /** Matching lines Grep returns at most per call. Default: 200. */
  grepMaxResults?: number;
}

export interface WorkspaceTools {
  /** Read, Glob, Grep. */
  readOnly: Tool[];
  /** Edit, Write: they only ever add to the change set. */
  edit: Tool[];
  /** The task's view (disk + its own proposals) the tools work on. */
  view: ChangeSetWorkspace;
}

/** The file tools of one task, named and shaped as the contract in docs/architecture.md says. */
export function createWorkspaceTools(options: WorkspaceToolsOptions): WorkspaceTools {
  const view = new ChangeSetWorkspace(options.workspace, options.changeSet, options.policy ?? defaultWorkspacePolicy);
  return {
    readOnly: [
      createReadTool(view),
      createGlobTool(view, options.globMaxResults ?? 500),
      createGrepTool(view, options.grepMaxResults ?? 200),
    ] as Tool[],
    edit: [createEditTool(view), createWriteTool(view)] as Tool[],
    view,
  };
}
