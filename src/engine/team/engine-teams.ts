/**
 * The engine's teams: one `AgentTeam` per combination of limits, made anew when they change (a team holds
 * no state of its own, so replacing it is free), over the engine's shared parts.
 */
import type { A2aHost } from '../a2a/remote-task-work.js';
import { listContextPolicy } from '../agent/compaction/context-policy.js';
import type { Capability } from '../capabilities/capability.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { PlanSettings } from '../conversation/plan-capability.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import type { FanOutPolicy } from '../delegation/fan-out.js';
import { createWorkspaceToolbox, describeTaskChanges } from '../file-tools/workspace-toolbox.js';
import { defaultLimits, defaults } from '../limits.js';
import type { Model } from '../model/types.js';
import type { RoleRegistry } from '../roles/role-registry.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { AgentTeam } from './agent-team.js';
import type { EngineHost, TeamSettings } from './engine-host.js';

export interface TeamParts {
  taskManager: TaskManager;
  changes: ChangeSetRegistry;
  roles: RoleRegistry;
  inbox: MessageInbox;
  capabilities: readonly Capability[];
  plans: PlanSettings;
  secrets: () => readonly string[];
  /** Wraps each task's model (the host's observer, then telemetry's). */
  observeModel: (taskId: string, model: Model) => Model;
}

/** `team(settings)` of the engine: the last combination's team is kept, any other is made anew. */
export function engineTeams(host: EngineHost, parts: TeamParts): (settings?: TeamSettings) => AgentTeam {
  const { taskManager, changes } = parts;
  const toolbox = createWorkspaceToolbox({ workspace: host.workspace, changes, taskManager });
  const teams = new Map<string, AgentTeam>();
  return (settings = {}) => {
    const key = JSON.stringify([settings.maxDepth, settings.autoBackgroundSeconds, settings.delegationReach, settings.confirmFanOutAbove]);
    let team = teams.get(key);
    if (!team) {
      team = new AgentTeam({
        taskManager,
        roles: parts.roles,
        toolbox,
        inbox: parts.inbox,
        capabilities: parts.capabilities,
        maxDepth: settings.maxDepth ?? defaultLimits.maxDepth,
        // Unset: the task manager's own option (its default: limits.ts) decides.
        ...(settings.autoBackgroundSeconds === undefined ? {} : { autoBackgroundMs: settings.autoBackgroundSeconds * 1000 }),
        delegationReach: settings.delegationReach ?? defaults.delegationReach,
        ...fanOutOf(host, settings.confirmFanOutAbove ?? defaultLimits.confirmFanOutAbove),
        plans: parts.plans,
        describeChanges: (taskId) => describeTaskChanges(changes, taskId),
        environmentNote: host.environmentNote,
        keepSubagentConversations: host.keepSubagentConversations ?? false,
        a2a: remoteAgents(host),
        secrets: parts.secrets,
        ...(host.conversations ? { conversations: host.conversations } : {}),
        ...(host.modelFor ? { modelFor: host.modelFor } : {}),
        observeModel: parts.observeModel,
        context: host.context ?? listContextPolicy,
      });
      teams.clear();
      teams.set(key, team);
    }
    return team;
  };
}

function fanOutOf(host: EngineHost, confirmAbove: number): { fanOut?: FanOutPolicy } {
  if (confirmAbove === Infinity) return {};
  return {
    fanOut: {
      confirmAbove,
      ...(host.confirmFanOut ? { confirm: host.confirmFanOut } : {}),
      ...(host.fanOutHowToAllow ? { howToAllow: host.fanOutHowToAllow } : {}),
    },
  };
}

/** Remote roles: not where the workspace is not trusted (a role file would send the task, and a token, where it chooses). */
function remoteAgents(host: EngineHost): A2aHost {
  return {
    allowed: host.trusted,
    get environment() {
      return host.remoteEnvironment?.() ?? host.environment;
    },
    get secrets() {
      return host.secrets();
    },
    ...(host.clock ? { clock: host.clock } : {}),
  };
}
