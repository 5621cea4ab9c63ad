import type { Tool } from '../agent/tool.js';

/** A file as the task sees it: its workspace-relative path (where the content lands) and its content. */
export interface ProposedFile {
  path: string;
  content: string;
}

/**
 * The workspace tools of one task, made by the host's toolbox: read tools see the task's own pending
 * edits; edit tools add to the task's change set and never touch the disk.
 */
export interface TaskTools {
  readOnly: Tool[];
  edit: Tool[];
  /** The files where the task's view differs from the disk (its proposals and the stacked ones), for `Bash`'s scratch copy. */
  proposals(): Promise<ProposedFile[]>;
}

/**
 * The workspace tools of one task. `changeSetOf`: the task whose change set its edits go into (a revision
 * works on the proposal it revises); default its own.
 */
export type WorkspaceToolbox = (task: { taskId: string; role: string; changeSetOf?: string }) => TaskTools;
