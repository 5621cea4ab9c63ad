/**
 * The list of what agents may do beyond files and delegation (which every team has), in the order each
 * task asks them. Adding a capability is a folder of its own that exports one `Capability`, and one line
 * here (docs/architecture.md, "Adding a capability").
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
    conversationCapability(hosts.userChannel),
  ];
}
