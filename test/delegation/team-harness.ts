/** An AgentTeam with one scripted model per role, a manual clock, and roles from an in-memory folder. */
import { teamCapabilities } from '../../src/engine/team/capabilities.js';
import type { ModelRequest } from '../../src/engine/model/types.js';
import type { ConversationStore } from '../../src/engine/conversation/conversation-store.js';
import type { UserChannel } from '../../src/engine/conversation/user-channel.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import type { McpHost } from '../../src/engine/mcp/mcp-role-tools.js';
import type { A2aHost } from '../../src/engine/a2a/remote-task-work.js';
import { AgentTeam } from '../../src/engine/team/agent-team.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import type { RoleFileSource } from '../../src/engine/roles/role-file-source.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel, type ScriptStep } from '../../src/engine/testing/scripted-model.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

export class MemoryRoleFiles implements RoleFileSource {
  readonly files = new Map<string, string>();

  async list(directory: string): Promise<string[]> {
    const prefix = `${directory}/`;
    return [...this.files.keys()]
      .filter((file) => file.startsWith(prefix) && !file.slice(prefix.length).includes('/'))
      .map((file) => file.slice(prefix.length));
  }

  async read(path: string): Promise<string> {
    const content = this.files.get(path);
    if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return content;
  }
}

export interface TeamHarness {
  team: AgentTeam;
  taskManager: TaskManager;
  roles: RoleRegistry;
  roleFiles: MemoryRoleFiles;
  clock: ManualClock;
  /** The scripted model of a role, created on first use; `coordinator` included. */
  model(role: string): ScriptedModel;
}

export async function createTeamHarness(
  options: {
    maxDepth?: number;
    autoBackgroundMs?: number;
    /** The task manager's own `autoBackgroundMs` (TaskManagerOptions). */
    managerAutoBackgroundMs?: number;
    maxConcurrent?: number;
    delegationReach?: 'own-tools' | 'any';
    userChannel?: UserChannel;
    conversations?: ConversationStore;
    mcp?: McpHost;
    a2a?: (clock: ManualClock) => A2aHost;
  } = {},
): Promise<TeamHarness> {
  const clock = new ManualClock();
  const roleFiles = new MemoryRoleFiles();
  const roles = new RoleRegistry({ knownTools: knownToolNames, source: roleFiles, clock });
  await roles.load();
  const taskManager = new TaskManager({
    clock,
    maxConcurrent: options.maxConcurrent ?? 8,
    onWarning: () => {},
    ...(options.managerAutoBackgroundMs === undefined ? {} : { autoBackgroundMs: options.managerAutoBackgroundMs }),
  });
  const models = new Map<string, ScriptedModel>();
  const model = (role: string) => {
    let scripted = models.get(role);
    if (!scripted) {
      scripted = new ScriptedModel([], { modelId: role });
      models.set(role, scripted);
    }
    return scripted;
  };
  const team = new AgentTeam({
    taskManager,
    roles,
    toolbox: () => ({ readOnly: [], edit: [], proposals: async () => [] }),
    modelFor: (role) => model(role),
    maxDepth: options.maxDepth,
    delegationReach: options.delegationReach,
    capabilities: teamCapabilities({
      ...(options.userChannel ? { userChannel: options.userChannel } : {}),
      ...(options.mcp ? { mcp: options.mcp } : {}),
    }),
    conversations: options.conversations,
    a2a: options.a2a?.(clock),
    // Unset when only the manager's is: the team then leaves the choice to the manager.
    ...(options.autoBackgroundMs === undefined && options.managerAutoBackgroundMs !== undefined
      ? {}
      : { autoBackgroundMs: options.autoBackgroundMs ?? 60_000 }),
  });
  return { team, taskManager, roles, roleFiles, clock, model };
}

/** The text of the last message of a request (its text parts and tool results). */
export function lastMessageText(request: Omit<ModelRequest, 'signal'>): string {
  const last = request.messages.at(-1);
  if (!last) return '';
  return last.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-result' ? part.output : '')).join('\n');
}

export function toolNamesOf(request: Omit<ModelRequest, 'signal'>): string[] {
  return request.tools.map((tool) => tool.name);
}

export type { ScriptStep };
