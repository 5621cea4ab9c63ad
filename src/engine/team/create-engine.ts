/**
 * The one way to build the engine. The CLI, the extension, the MCP server and the A2A server each supply
 * only what differs between them (`EngineHost`: trust, who allows commands, the user channel, the
 * secrets, the stores, the clock); everything else is built here the same way for all of them.
 */
import { listContextPolicy } from '../agent/compaction/context-policy.js';
import { homedir } from 'node:os';
import type { A2aHost } from '../a2a/remote-task-work.js';
import type { HookSettings } from '../hooks/hooks-capability.js';
import type { InstructionSettings } from '../instructions/instructions-capability.js';
import type { SkillSettings } from '../skills/skills-capability.js';
import { instructionSources } from '../instructions/instruction-sources.js';
import type { Capability } from '../capabilities/capability.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import { createCommandHost, type DisposableCommandHost } from '../commands/create-command-host.js';
import { engineChecks } from '../checks/engine-checks.js';
import { checkItem } from './folder-check-items.js';
import type { ChecksService } from '../checks/checks-service.js';
import { serverSandbox } from '../commands/sandbox/server-launch.js';
import { MessageInbox } from '../conversation/message-inbox.js';
import type { FanOutPolicy } from '../delegation/fan-out.js';
import { createWorkspaceToolbox, describeTaskChanges } from '../file-tools/workspace-toolbox.js';
import { defaultLimits } from '../limits.js';
import type { McpHost } from '../mcp/mcp-role-tools.js';
import type { RoleRegistry } from '../roles/role-registry.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { ServerGate } from './server-gate.js';
import { hookItem } from './folder-hook-items.js';
import { skillItem } from './folder-skill-items.js';
import { sandboxRefusal } from './sandbox-notice.js';
import type { WebHost } from '../web/web-host.js';
import { AgentTeam } from './agent-team.js';
import { teamCapabilities } from './capabilities.js';
import { configuredServersHost } from './configured-servers-host.js';
import { McpInputAnswers } from '../mcp/mcp-input-answers.js';
import { overlapCapability } from './overlap-capability.js';
import { planCapability, type PlanSettings } from '../conversation/plan-capability.js';
import type { EngineHost, TeamSettings } from './engine-host.js';

export type { EngineHost, TeamSettings } from './engine-host.js';

export interface Engine {
  readonly roles: RoleRegistry;
  readonly taskManager: TaskManager;
  readonly changes: ChangeSetRegistry;
  /** Messages for running tasks, shared by every team of the engine. */
  readonly inbox: MessageInbox;
  readonly commands: DisposableCommandHost;
  /** The repository's own checks on proposals (src/engine/checks). */
  readonly checks: ChecksService;
  /** What agents may do beyond files and delegation, in the order they are asked. */
  readonly capabilities: readonly Capability[];
  /** The team with these limits, made anew when they change (a team holds no state of its own, so replacing it is free). */
  team(settings?: TeamSettings): AgentTeam;
  /** Ends what the engine holds besides tasks (the scratch copies of commands). */
  close(): Promise<void>;
}

export function createEngine(host: EngineHost): Engine {
  const { workspace, taskManager, changes } = host;
  // The passwords typed for configured servers' inputs are secrets from then on, like the keys.
  const answers = new McpInputAnswers();
  const secrets = () => [...host.secrets(), ...answers.secrets()];
  const commands = createCommandHost({
    ...host.commands,
    workspaceRoot: workspace.root,
    taskManager,
    secretValues: secrets,
    sourceEnvironment: host.environment,
    ...(host.clock ? { clock: host.clock } : {}),
  });
  const howToTrust = host.howToTrust ?? 'the user trusts it with Manage Workspace Trust';
  const noSandbox = sandboxRefusal(commands);
  const mcp: McpHost = {
    // Which servers may start is the gate's to say (`servers` below): the folder's roles' only where it is trusted.
    allowed: () => true,
    cwd: workspace.root,
    environment: host.environment,
    get secrets() {
      return secrets();
    },
    // In the OS sandbox, with the workspace read-only, where commands run in one.
    sandbox: serverSandbox(commands),
  };
  const instructions: InstructionSettings = {
    root: workspace.root,
    home: host.userHome ?? homedir(),
    sources: host.instructionSources ?? (() => instructionSources),
    // Text the agents read, as they read any file of the folder; not code. (VS Code runs no agent in Restricted Mode.)
    allowed: () => true,
  };
  // The folder's skills are repository content that steers agents: only where it is trusted, and only as trusted.
  const skills: SkillSettings = {
    root: workspace.root,
    home: host.userHome ?? homedir(),
    workspaceAllowed: host.trusted,
    ...(host.trustsFolderItem ? { trustsSkill: (skill) => host.trustsFolderItem!(skillItem(skill)) } : {}),
  };
  const hooks: HookSettings = {
    root: workspace.root,
    home: host.userHome ?? homedir(),
    enabled: () => host.hooksEnabled?.() ?? true,
    allowed: host.trusted,
    ...(host.trustsFolderItem ? { allowsHook: (hook) => host.trustsFolderItem!(hookItem(hook)) } : {}),
    sandboxRefusal: noSandbox,
    howToTrust,
  };
  const servers: ServerGate = { workspaceTrusted: host.trusted, sandboxRefusal: noSandbox, howToTrust };
  // Called through, not spread: a host's rules may be a class (the extension's), whose methods a spread drops.
  const sites = host.web;
  const web: WebHost = {
    allowedDomains: () => sites.allowedDomains(),
    howToAllow: sites.howToAllow,
    ...(sites.ask ? { ask: sites.ask.bind(sites) } : {}),
    ...(host.clock ? { clock: host.clock } : {}),
  };
  const checks = engineChecks({
    commands,
    changes,
    taskManager,
    trusts: (check) => host.trusted() && (host.trustsFolderItem?.(checkItem(check)) ?? true),
    howToTrust,
    secrets: () => host.secrets(),
    ...(host.checks ? { settings: host.checks } : {}),
  });
  const plans: PlanSettings = {
    ...(host.approvePlan ? { approvePlan: () => host.approvePlan?.() ?? false } : {}),
    ...(host.userChannel ? { channel: host.userChannel } : {}),
    ...(host.planAnswerHowTo ? { howToAnswer: host.planAnswerHowTo } : {}),
    // Called from the task's own turn: awaiting its end there would wait for itself.
    stopTask: (taskId) => void taskManager.stop(taskId, { kind: 'user' }).catch(() => undefined),
  };
  const capabilities = [
    planCapability(plans),
    ...teamCapabilities({
      instructions,
      skills,
      hooks,
      commands,
      web,
      mcp,
      servers,
      configuredServers: configuredServersHost(host, commands, howToTrust, answers),
      ...(host.hostTools ? { hostTools: host.hostTools } : {}),
      ...(host.userChannel ? { userChannel: host.userChannel } : {}),
      ...(host.settings ? { settings: () => host.settings!() } : {}),
    }),
    overlapCapability({ changes, children: (taskId) => taskManager.children(taskId) }),
    ...checks.capabilities,
  ];
  const inbox = new MessageInbox(taskManager);
  const toolbox = createWorkspaceToolbox({ workspace, changes, taskManager });
  const teams = new Map<string, AgentTeam>();
  return {
    roles: host.roles,
    taskManager,
    changes,
    inbox,
    commands,
    checks: checks.service,
    capabilities,
    team(settings = {}) {
      const key = JSON.stringify([
        settings.maxDepth,
        settings.autoBackgroundSeconds,
        settings.delegationReach,
        settings.confirmFanOutAbove,
      ]);
      let team = teams.get(key);
      if (!team) {
        team = new AgentTeam({
          taskManager,
          roles: host.roles,
          toolbox,
          inbox,
          capabilities,
          maxDepth: settings.maxDepth ?? defaultLimits.maxDepth,
          autoBackgroundMs: (settings.autoBackgroundSeconds ?? defaultLimits.autoBackgroundSeconds) * 1000,
          delegationReach: settings.delegationReach ?? 'own-tools',
          ...fanOutOf(host, settings.confirmFanOutAbove ?? defaultLimits.confirmFanOutAbove),
          plans,
          describeChanges: (taskId) => describeTaskChanges(changes, taskId),
          environmentNote: host.environmentNote,
          keepSubagentConversations: host.keepSubagentConversations ?? false,
          a2a: remoteAgents(host),
          secrets,
          ...(host.conversations ? { conversations: host.conversations } : {}),
          ...(host.modelFor ? { modelFor: host.modelFor } : {}),
          ...(host.observeModel ? { observeModel: host.observeModel.bind(host) } : {}),
          context: host.context ?? listContextPolicy,
        });
        teams.clear();
        teams.set(key, team);
      }
      return team;
    },
    close: async () => {
      await Promise.allSettled([...capabilities.map((capability) => capability.close?.()), checks.service.dispose()]);
    },
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
