/**
 * Hooks, as a capability: the commands users configure in Claude Code's settings files run at the same
 * points of an agent's work here. PreToolUse sees each tool call before it runs and may refuse it (its
 * reason goes to the agent); PostToolUse sees each successful call (a formatter's version of an edited
 * file becomes the proposal); Stop and SubagentStop may send an agent back to work; UserPromptSubmit sees
 * the user's prompt first. The folder's own settings files' hooks run only where it is trusted (a folder
 * choosing programs to run is code execution); the user's own (`~/.claude/settings.json`) run regardless.
 * Where there is no OS sandbox none runs, the user's neither: a hook runs in the repository's folder, where
 * `npm test` or a formatter runs the repository's code as the user.
 */
import type { Capability } from '../capabilities/capability.js';
import type { UserChannel } from '../conversation/user-channel.js';
import type { HookDefinition } from './hook-config.js';
import { hookGrant } from './hook-grant.js';
import type { HookRunner } from './hook-process.js';
import { type LoadedHooks, loadHooks } from './hook-sources.js';
import { describeHook } from './hook-verdict.js';
import { TaskHooks } from './task-hooks.js';

export { maxStopHookContinuations } from './hook-grant.js';

export interface HookSettings {
  /** The workspace root. */
  root: string;
  /** The user's home, for their own settings. Default: none read. */
  home?: string;
  /** False when the user turned hooks off (`agentTeam.hooks`, `--no-hooks`), read at each task's start. */
  enabled(): boolean;
  /** False where the folder is not trusted: its own settings files' hooks do not run (the user's do). */
  allowed(): boolean;
  /** Whether this hook of the folder's is one the user trusted (its settings are read anew at each task's start). Default: all are. */
  allowsHook?(hook: HookDefinition): boolean;
  /** Why no hook may run at all (no OS sandbox here); undefined where they may. Default: they may. */
  sandboxRefusal?(): Promise<string | undefined>;
  /** How the user trusts the folder, said when its hooks are held back. Default: a generic sentence. */
  howToTrust?: string;
}

export function hooksCapability(settings: HookSettings, runner: HookRunner, channel?: UserChannel): Capability {
  return {
    name: 'hooks',
    async grant(task) {
      if (!settings.enabled()) return undefined;
      const loaded = await allowedHooks(settings);
      const notices = [
        ...(loaded.hooks.length > 0 ? [`Hooks: ${loaded.hooks.length} from ${loaded.sources.join(', ')}`] : []),
        ...loaded.problems,
      ];
      if (loaded.hooks.length === 0) return notices.length > 0 ? { notices } : undefined;
      return { notices, ...hookGrant(new TaskHooks(loaded.hooks, runner, task), task, channel, settings.root) };
    },
  };
}

/** The hooks that may run for a task, and why any that are configured do not. */
async function allowedHooks(settings: HookSettings): Promise<LoadedHooks> {
  const loaded = await loadHooks(settings.root, settings.home);
  const trusted = settings.allowed();
  const held = loaded.hooks.filter((hook) => !hook.source.startsWith('~/') && !(trusted && (settings.allowsHook?.(hook) ?? true)));
  let hooks = loaded.hooks.filter((hook) => !held.includes(hook));
  const problems = [...loaded.problems];
  if (held.length > 0) {
    const files = [...new Set(held.map((hook) => hook.source))].join(', ');
    const why = trusted ? 'changed since the user trusted this folder' : 'this folder is not trusted';
    problems.push(
      `Not run: ${held.length} hook${held.length === 1 ? '' : 's'} of ${files}: ${why} (${settings.howToTrust ?? 'the user must trust it first'})`,
    );
  }
  const noSandbox = hooks.length > 0 ? await settings.sandboxRefusal?.() : undefined;
  if (noSandbox !== undefined) {
    problems.push(`Not run: ${hooks.length} hook${hooks.length === 1 ? '' : 's'} (${hooks.map(describeHook).join('; ')}): ${noSandbox}`);
    hooks = [];
  }
  return { hooks, sources: loaded.sources.filter((source) => hooks.some((hook) => hook.source === source)), problems };
}
