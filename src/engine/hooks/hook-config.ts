/**
 * Hooks as Claude Code writes them in a settings file (`hooks` in `.claude/settings.json`): for each event,
 * groups of a matcher and the commands to run. Read leniently: what this engine does not run (another event,
 * another kind of handler, a matcher that could take forever) is a problem that names it, and the rest of
 * the file still counts.
 */

/** The events Agent Team runs hooks on (Claude Code's names). */
export const hookEventNames = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact'] as const;
export type HookEventName = (typeof hookEventNames)[number];

/** Seconds a hook may run when its entry names no `timeout` (Claude Code's default). */
export const defaultHookTimeoutSeconds = 60;
/** The longest `timeout` honoured; a longer one is read as this. */
export const maxHookTimeoutSeconds = 600;
/** Longer matchers are refused: a tool's name is at most 64 characters, and a long pattern only costs time. */
const maxMatcherLength = 200;

export interface HookDefinition {
  event: HookEventName;
  /** Which calls it runs for, tested against the tool's name (the role's, for SubagentStop). Undefined: all. */
  matcher?: RegExp | readonly string[];
  /** As written, for the transcript. */
  matcherText: string;
  /** The shell line, run by bash. */
  command: string;
  timeoutMs: number;
  /** The settings file it came from, as the user names it (`.claude/settings.json`, `~/.claude/settings.json`). */
  source: string;
}

export interface ParsedHooks {
  hooks: HookDefinition[];
  /** True when the file sets `disableAllHooks`: then no hook runs at all, from any file. */
  disableAll: boolean;
  problems: string[];
}

/** The hooks of one settings file's parsed JSON. */
export function parseHookSettings(settings: unknown, source: string): ParsedHooks {
  const parsed: ParsedHooks = { hooks: [], disableAll: false, problems: [] };
  if (!isRecord(settings)) {
    parsed.problems.push(`${source}: not a JSON object; its hooks are not run`);
    return parsed;
  }
  parsed.disableAll = settings.disableAllHooks === true;
  const events = settings.hooks;
  if (events === undefined) return parsed;
  if (!isRecord(events)) {
    parsed.problems.push(`${source}: "hooks" is not an object; its hooks are not run`);
    return parsed;
  }
  for (const [event, groups] of Object.entries(events)) {
    if (!isHookEventName(event)) {
      parsed.problems.push(`${source}: hooks of event "${event}" are not run by Agent Team (it runs ${hookEventNames.join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      parsed.problems.push(`${source}: hooks.${event} is not a list; its hooks are not run`);
      continue;
    }
    groups.forEach((group, index) => parseGroup(group, event, `${source}: hooks.${event}[${index}]`, source, parsed));
  }
  return parsed;
}

function parseGroup(group: unknown, event: HookEventName, where: string, source: string, parsed: ParsedHooks): void {
  if (!isRecord(group) || !Array.isArray(group.hooks)) {
    parsed.problems.push(`${where}: has no "hooks" list; skipped`);
    return;
  }
  const matcherText = typeof group.matcher === 'string' ? group.matcher : '';
  const matcher = parseMatcher(matcherText);
  if (typeof matcher === 'string') {
    parsed.problems.push(`${where}: matcher "${matcherText.slice(0, 80)}" is refused (${matcher}); its hooks are not run`);
    return;
  }
  group.hooks.forEach((handler: unknown, index: number) => {
    if (!isRecord(handler)) {
      parsed.problems.push(`${where}.hooks[${index}]: not an object; skipped`);
      return;
    }
    if (handler.type !== 'command') {
      parsed.problems.push(`${where}.hooks[${index}]: hooks of type "${String(handler.type)}" are not run by Agent Team (only "command")`);
      return;
    }
    if (typeof handler.command !== 'string' || handler.command.trim() === '') {
      parsed.problems.push(`${where}.hooks[${index}]: has no command; skipped`);
      return;
    }
    const unknown = Object.keys(handler).filter((key) => !['type', 'command', 'timeout'].includes(key));
    if (unknown.length > 0)
      parsed.problems.push(`${where}.hooks[${index}]: ${unknown.map((key) => `"${key}"`).join(', ')} not understood; ignored`);
    parsed.hooks.push({
      event,
      ...(matcher ? { matcher } : {}),
      matcherText,
      command: handler.command,
      timeoutMs: timeoutOf(handler.timeout) * 1000,
      source,
    });
  });
}

/**
 * Claude Code's rule: empty or `*` matches everything; letters, digits, `_` and `|` only is a list of
 * exact names; anything else is a regular expression, tested anywhere in the name. A refusal is a string.
 */
export function parseMatcher(text: string): RegExp | readonly string[] | undefined | string {
  if (text === '' || text === '*') return undefined;
  if (text.length > maxMatcherLength) return `longer than ${maxMatcherLength} characters`;
  if (/^[A-Za-z0-9_|]+$/.test(text)) return text.split('|').filter((name) => name !== '');
  // Backtracking can take exponential time on a short name ("(a|a)*b", "(a+)+b"), and is polynomial in the
  // number of open-ended repeats: a repeated group, or more than three repeats, is refused, not tried.
  if (/\)\s*(?:[*+]|\{\d*,)/.test(text)) return 'a repeated group can take forever to test; list the names, or use a simpler pattern';
  if ((text.match(/(?<!\\)(?:[*+]|\{\d*,\d*\})/g) ?? []).length > 3)
    return 'more than three repeats can take long to test; use a simpler pattern';
  try {
    return new RegExp(text);
  } catch (error) {
    return error instanceof Error ? error.message : 'not a regular expression';
  }
}

/** Whether a definition's matcher takes `name` (a tool's name, or a subagent's role). */
export function matches(hook: HookDefinition, name: string): boolean {
  if (hook.matcher === undefined) return true;
  if (hook.matcher instanceof RegExp) return hook.matcher.test(name);
  return hook.matcher.includes(name);
}

function timeoutOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return defaultHookTimeoutSeconds;
  return Math.min(value, maxHookTimeoutSeconds);
}

function isHookEventName(value: string): value is HookEventName {
  return (hookEventNames as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
