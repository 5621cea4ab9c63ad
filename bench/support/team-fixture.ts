/**
 * An `AgentTeam` as the CLI builds one, for benchmarks: a real task manager, the built-in roles, and
 * whatever models and workspace tools the benchmark gives it. Warnings from the manager are collected, so a
 * benchmark can fail loudly on them instead of printing into the table.
 */
import type { ContextPolicy } from '../../src/engine/agent/compaction/context-policy.js';
import { teamCapabilities } from '../../src/engine/team/capabilities.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import type { UserChannel } from '../../src/engine/conversation/user-channel.js';
import type { Model } from '../../src/engine/model/types.js';
import { TaskManager, type TaskManagerOptions } from '../../src/engine/tasks/index.js';
import { AgentTeam } from '../../src/engine/team/agent-team.js';
import type { RoleFileSource } from '../../src/engine/roles/role-file-source.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import type { WorkspaceToolbox } from '../../src/engine/file-tools/task-tools.js';
import { createWorkspaceToolbox } from '../../src/engine/file-tools/workspace-toolbox.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

/** No role files: the registry holds the built-in roles only. */
const noRoleFiles = { list: async () => [], read: async () => '' };

/** No workspace tools at all: for benchmarks whose agents only delegate or answer. */
export const emptyToolbox: WorkspaceToolbox = () => ({ readOnly: [], edit: [], proposals: async () => [] });

/** The real file tools (Read, Glob, Grep, Edit, Write) over a folder, each task with its own change set. */
export function folderToolbox(root: string): WorkspaceToolbox {
  return createWorkspaceToolbox({ workspace: new NodeWorkspace(root), changes: new ChangeSetRegistry() });
}

export interface BenchTeamOptions {
  /** The model for a role (`coordinator`, `researcher`, …). */
  modelFor(role: string): Model;
  /** Default: `emptyToolbox`. */
  toolbox?: WorkspaceToolbox;
  /** Passed to the task manager; its own defaults otherwise. */
  taskManager?: Omit<TaskManagerOptions, 'onWarning'>;
  /** Role files beside the built-ins (call `roles.load()` before the first run). Default: none. */
  roleFiles?: RoleFileSource;
  /** How `task` and `chat` roles reach the user. Default: none. */
  userChannel?: UserChannel;
  /** Planning and delegation depth (`AgentTeamOptions.maxDepth`). Default: the team's (3). */
  maxDepth?: number;
  /** The context windows (`AgentTeamOptions.context`): the meter runs in every agent loop. Default: none (B18 compares). */
  context?: ContextPolicy;
}

export interface BenchTeam {
  team: AgentTeam;
  taskManager: TaskManager;
  roles: RoleRegistry;
  /** What the manager warned about (failed saves, throwing listeners); a clean run has none. */
  warnings: string[];
  close(): Promise<void>;
}

export function createBenchTeam(options: BenchTeamOptions): BenchTeam {
  const warnings: string[] = [];
  const taskManager = new TaskManager({ ...options.taskManager, onWarning: (message) => warnings.push(message) });
  const roles = new RoleRegistry({ knownTools: knownToolNames, source: options.roleFiles ?? noRoleFiles });
  const team = new AgentTeam({
    taskManager,
    roles,
    toolbox: options.toolbox ?? emptyToolbox,
    modelFor: (role) => options.modelFor(role),
    capabilities: teamCapabilities({ ...(options.userChannel ? { userChannel: options.userChannel } : {}) }),
    maxDepth: options.maxDepth,
    ...(options.context ? { context: options.context } : {}),
  });
  const close = async () => {
    await taskManager.close();
    roles.dispose();
  };
  return { team, taskManager, roles, warnings, close };
}

/** Throws when the manager warned: a benchmark of a run that went wrong measures nothing. */
export function assertNoWarnings(team: BenchTeam): void {
  if (team.warnings.length > 0) throw new Error(`the task manager warned: ${team.warnings.slice(0, 3).join('; ')}`);
}
