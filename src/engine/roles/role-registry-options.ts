/** What a `RoleRegistry` is built from (role-registry.ts); the composition root fills it (team/engine-roles.ts). */
import type { Clock } from '../clock.js';
import type { KnownTools } from './known-tools.js';
import type { RoleFileSource, RoleWatch } from './role-file-source.js';
import type { RoleDefinition } from './types.js';

export interface RoleRegistryOptions {
  source: RoleFileSource;
  /**
   * The tool names the capabilities declare, which role files, workflows' inline agents and prompt files may
   * name (known-tools.ts). Required: roles/ cannot know them; the composition root derives them (engine-roles.ts).
   */
  knownTools: KnownTools;
  /** The user's home, for their own role files (`~/.claude/agents`, …). Default: none read. */
  userSource?: RoleFileSource;
  /** VS Code's user prompts folder, relative to the user's home (its `*.agent.md` are roles too). Default: none. */
  userPromptsDirectory?: string;
  /**
   * The host's file watcher (`watchRoleDirectories` on Node, a FileSystemWatcher in the extension),
   * started by the first `load()`. Default: none, so roles change only on `reload()`.
   */
  watch?: RoleWatch;
  /** Times the debounce. Default `systemClock`. */
  clock?: Clock;
  /** Quiet time after the last watcher event before reloading. Default 200 ms. */
  debounceMs?: number;
  /** Default `builtInRoles`. */
  builtIns?: readonly RoleDefinition[];
}
