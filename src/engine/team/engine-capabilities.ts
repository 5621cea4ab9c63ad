/**
 * What agents may do beyond files and delegation, assembled from the host's ports the same way for every
 * host: the plan, instruction files, skills, hooks, commands, WebFetch, MCP servers, overlap notices and
 * the repository's checks. `createEngine` calls it once per engine.
 */
import { homedir } from 'node:os';
import type { Capability } from '../capabilities/capability.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import { engineChecks } from '../checks/engine-checks.js';
import type { ChecksService } from '../checks/checks-service.js';
import type { DisposableCommandHost } from '../commands/create-command-host.js';
import { serverSandbox } from '../commands/sandbox/server-launch.js';
import { planCapability, type PlanSettings } from '../conversation/plan-capability.js';
import type { UserChannel } from '../conversation/user-channel.js';
import type { HookSettings } from '../hooks/hooks-capability.js';
import { instructionSources } from '../instructions/instruction-sources.js';
import type { InstructionSettings } from '../instructions/instructions-capability.js';
import type { McpInputAnswers } from '../mcp/mcp-input-answers.js';
import type { McpHost } from '../mcp/mcp-role-tools.js';
import type { SkillSettings } from '../skills/skills-capability.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { WebHost } from '../web/web-host.js';
import { teamCapabilities } from './capabilities.js';
import { configuredServersHost } from './configured-servers-host.js';
import type { EngineHost } from './engine-host.js';
import { checkItem } from './folder-check-items.js';
import { hookItem } from './folder-hook-items.js';
import { skillItem } from './folder-skill-items.js';
import { overlapCapability } from './overlap-capability.js';
import { sandboxRefusal } from './sandbox-notice.js';
import type { ServerGate } from './server-gate.js';

export interface CapabilityParts {
  commands: DisposableCommandHost;
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  /** The host's secrets and the configured servers' typed inputs. */
  secrets: () => readonly string[];
  answers: McpInputAnswers;
  userChannel: UserChannel | undefined;
}

export interface EngineCapabilities {
  capabilities: Capability[];
  checks: { service: ChecksService; capabilities: readonly Capability[] };
  plans: PlanSettings;
}

export function engineCapabilities(host: EngineHost, parts: CapabilityParts): EngineCapabilities {
  const { workspace } = host;
  const { commands, changes, taskManager, secrets, userChannel } = parts;
  const home = host.userHome ?? homedir();
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
    home,
    sources: host.instructionSources ?? (() => instructionSources),
    // Text the agents read, as they read any file of the folder; not code. (VS Code runs no agent in Restricted Mode.)
    allowed: () => true,
  };
  // The folder's skills are repository content that steers agents: only where it is trusted, and only as trusted.
  const skills: SkillSettings = {
    root: workspace.root,
    home,
    workspaceAllowed: host.trusted,
    ...(host.trustsFolderItem ? { trustsSkill: (skill) => host.trustsFolderItem!(skillItem(skill)) } : {}),
  };
  const hooks: HookSettings = {
    root: workspace.root,
    home,
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
    ...(userChannel ? { channel: userChannel } : {}),
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
      configuredServers: configuredServersHost(host, commands, howToTrust, parts.answers),
      ...(host.hostTools ? { hostTools: host.hostTools } : {}),
      ...(host.settings ? { settings: () => host.settings!() } : {}),
      ...(userChannel ? { userChannel } : {}),
    }),
    overlapCapability({ changes, children: (taskId) => taskManager.children(taskId) }),
    ...checks.capabilities,
  ];
  return { capabilities, checks, plans };
}
