/**
 * The roles of a workspace, from the same sources for every host and every command: the folder's role
 * files over the user's own (`~/.claude/agents`, …) over the built-in ones. `agent-team workflows`, `run`,
 * `agents`, `trust`, the servers and the extension all read roles through here, so one cannot know a
 * role the other calls unknown.
 */
import type { Clock } from '../clock.js';
import { NodeRoleFileSource } from '../roles/node-role-file-source.js';
import type { RoleFileSource, RoleWatch } from '../roles/role-file-source.js';
import { RoleRegistry } from '../roles/role-registry.js';
import type { RoleLoadResult } from '../roles/types.js';
import { knownToolNames } from './capabilities.js';

export interface TeamRolePorts {
  /** The workspace folder. */
  root: string;
  /** The user's home, for their own role files. */
  home: string;
  /** How the folder's files are read. Default: from disk (`NodeRoleFileSource`); the extension reads through VS Code. */
  source?: RoleFileSource;
  /** VS Code's user prompts folder, relative to the home. Default: none. */
  userPromptsDirectory?: string;
  /** The host's file watcher. Default: none (roles change on `reload()` only). */
  watch?: RoleWatch;
  /** Times the watcher's debounce. Default `systemClock`. */
  clock?: Clock;
}

export function createTeamRoles(ports: TeamRolePorts): RoleRegistry {
  return new RoleRegistry({
    // roles/ sits below the capabilities: the tools role files may name come from their descriptors, here.
    knownTools: knownToolNames,
    source: ports.source ?? new NodeRoleFileSource(ports.root),
    userSource: new NodeRoleFileSource(ports.home),
    ...(ports.userPromptsDirectory === undefined ? {} : { userPromptsDirectory: ports.userPromptsDirectory }),
    ...(ports.watch ? { watch: ports.watch } : {}),
    ...(ports.clock ? { clock: ports.clock } : {}),
  });
}

/** The roles read once, for a command that only looks at them (`agents`, `trust`, `mcp-servers`). */
export async function readTeamRoles(ports: Pick<TeamRolePorts, 'root' | 'home'>): Promise<RoleLoadResult> {
  const roles = createTeamRoles(ports);
  try {
    return await roles.load();
  } finally {
    roles.dispose();
  }
}

/** Runs `use` over the roles, read once, and lets them go after (`agent-team workflows`). */
export async function withTeamRoles<T>(ports: Pick<TeamRolePorts, 'root' | 'home'>, use: (roles: RoleRegistry) => Promise<T>): Promise<T> {
  const roles = createTeamRoles(ports);
  try {
    await roles.load();
    return await use(roles);
  } finally {
    roles.dispose();
  }
}
