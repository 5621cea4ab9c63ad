/**
 * The capabilities: what each declares (`capabilityDescriptors`: its tools and settings, from which the
 * hosts derive the known tools, the CLI's options, --help, the VS Code settings and the New Role picker)
 * and the list every task asks, in order (`teamCapabilities`). Adding a capability is a folder of its own
 * and one line in `capabilityDescriptors` (docs/architecture.md, "Adding a capability").
 */
import type { Capability } from '../capabilities/capability.js';
import { commandsCapability } from '../commands/commands-capability.js';
import type { DisposableCommandHost } from '../commands/create-command-host.js';
import { conversationCapability } from '../conversation/conversation-capability.js';
import type { UserChannel } from '../conversation/user-channel.js';
import { type InstructionSettings, instructionsCapability } from '../instructions/instructions-capability.js';
import { type HookSettings, hooksCapability } from '../hooks/hooks-capability.js';
import { commandHookRunner } from '../hooks/hook-process.js';
import { mcpCapability } from '../mcp/mcp-capability.js';
import { configuredServersCapability, type ConfiguredServersHost } from '../mcp/configured-servers-capability.js';
import { hostToolsCapability, type HostToolPort } from '../mcp/host-tools.js';
import { webCapability } from '../web/web-capability.js';
import type { WebHost } from '../web/web-host.js';
import type { McpHost } from '../mcp/mcp-role-tools.js';
import { gatedServers, type ServerGate } from './server-gate.js';
import { sandboxNotice } from './sandbox-notice.js';
import { type SkillSettings, skillsCapability } from '../skills/skills-capability.js';
import { fileToolsDescriptor } from '../capabilities/file-tools-descriptor.js';
import { createdCapabilities, defaultSettingsOf, roleTools, type SettingsOf } from '../capabilities/descriptor-list.js';
import { commandsDescriptor } from '../commands/commands-descriptor.js';
import { webDescriptor } from '../web/web-descriptor.js';
import { skillsDescriptor } from '../skills/skills-descriptor.js';
import { delegationDescriptor } from '../delegation/delegation-descriptor.js';
import { instructionsDescriptor } from '../instructions/instructions-descriptor.js';
import { hooksDescriptor } from '../hooks/hooks-descriptor.js';
import { conversationDescriptor } from '../conversation/conversation-descriptor.js';
import { checksDescriptor } from '../checks/checks-descriptor.js';
import { exitLoopDescriptor } from '../capabilities/exit-loop-descriptor.js';
import { coreDescriptor } from './core-descriptor.js';

/** Every capability's declaration, in the order hosts show them (tools in the picker, options in --help). */
export const capabilityDescriptors = [
  coreDescriptor,
  fileToolsDescriptor,
  commandsDescriptor,
  webDescriptor,
  skillsDescriptor,
  delegationDescriptor,
  instructionsDescriptor,
  hooksDescriptor,
  conversationDescriptor,
  checksDescriptor,
  exitLoopDescriptor,
] as const;

/** The settings of every capability, keyed by its name (`settings.web.allowedDomains`), as hosts parse them. */
export type CapabilitySettings = SettingsOf<typeof capabilityDescriptors>;

export const defaultCapabilitySettings = (): CapabilitySettings => defaultSettingsOf(capabilityDescriptors);

/** The tools role files may name, with what each is for: every capability's but those given by circumstance. */
export const knownTools = roleTools(capabilityDescriptors);

/** Their names alone, in the same order: what the role registry, workflows and prompt files check tool lists against (roles/known-tools.ts). */
export const knownToolNames: readonly string[] = knownTools.map((tool) => tool.name);

/** What the capabilities are built from; a part left out leaves its capability without a host. */
export interface CapabilityHosts {
  /** Where instruction files are read, and which. Default: none (agents get no AGENTS.md). */
  instructions?: InstructionSettings;
  /** Where hooks are configured and whether they run; they run where commands do. Default: none runs. */
  hooks?: HookSettings;
  /** Where `Bash` runs commands and who allows them. Default: none (roles that list Bash go without it). */
  commands?: DisposableCommandHost;
  /** How roles' MCP servers start, and whether they may. Default: none starts (each role is told so). */
  mcp?: McpHost;
  /** Which roles' servers may start: the folder's only where it is trusted, stdio ones only in a sandbox. Default: as `mcp` says. */
  servers?: ServerGate;
  /** The servers of `.mcp.json`, `.vscode/mcp.json` and the user's file, for roles that name their tools. Default: none. */
  configuredServers?: ConfiguredServersHost;
  /** The host's registered tools (VS Code's), for roles that name them as `vscode__<tool>`. Default: none. */
  hostTools?: HostToolPort;
  /** Which sites `WebFetch` reads from, and who is asked about others. Default: none (roles that list WebFetch go without it). */
  web?: WebHost;
  /** How `task` and `chat` agents reach the user. Default: none (they are told no user is available). */
  userChannel?: UserChannel;
  /** Where Agent Skills are found, and whether the folder's may be used. Default: none (no `Skill` tool). */
  skills?: SkillSettings;
  /** The settings as the host has them now (parsed by the descriptors); a capability built from its settings alone reads its own part. Default: every default. */
  settings?: () => CapabilitySettings;
}

export function teamCapabilities(hosts: CapabilityHosts): Capability[] {
  const roleServers = hosts.servers ? gatedServers(mcpCapability(hosts.mcp), hosts.servers) : mcpCapability(hosts.mcp);
  return [
    // First: where nothing of the repository may run, or all of it runs as the user, the run says so before anything else.
    ...(hosts.commands ? [sandboxNotice(hosts.commands)] : []),
    ...(hosts.instructions ? [instructionsCapability(hosts.instructions)] : []),
    // Before hooks and commands: a call a skill's allowed-tools refuses is refused before anyone is asked about it.
    ...(hosts.skills ? [skillsCapability(hosts.skills)] : []),
    // Before the others: a PreToolUse hook sees a call before anyone is asked to allow it, as in Claude Code.
    ...(hosts.hooks && hosts.commands ? [hooksCapability(hosts.hooks, commandHookRunner(hosts.commands), hosts.userChannel)] : []),
    ...(hosts.commands ? [commandsCapability(hosts.commands)] : []),
    ...(hosts.web ? [webCapability(hosts.web)] : []),
    roleServers,
    // Configured servers start through the same gate and sandbox as a role's own.
    ...(hosts.configuredServers ? [configuredServersCapability(roleServers, hosts.configuredServers)] : []),
    ...(hosts.hostTools ? [hostToolsCapability(hosts.hostTools)] : []),
    ...createdCapabilities(capabilityDescriptors, hosts.settings ?? defaultCapabilitySettings),
    conversationCapability(hosts.userChannel),
  ];
}
