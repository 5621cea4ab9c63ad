/**
 * A list of allowed tools in Claude Code's form (a skill's or a command's `allowed-tools`): tool names, a
 * name ending in `*` (`mcp__calc__*`), and for Bash a command pattern (`Bash(git status:*)`: lines
 * beginning `git status`; `Bash(npm test)`: that line exactly). One reading for skills (skill-narrowing.ts)
 * and a run's prompt file (agent-tasks/narrowed-tools.ts), so both narrow the same way.
 * Always allowed, whatever the list: the tools that load text or keep a plan (`Skill`, `TodoWrite`: they
 * widen nothing) and those that end or pause a task (`CompleteTask`, `AskUser`), so a narrowed agent can
 * still finish.
 */
import type { ToolCallRequest } from '../agent/types.js';
import { skillToolName } from './skill-tool.js';

const alwaysAllowed = new Set([skillToolName, 'TodoWrite', 'CompleteTask', 'AskUser']);

/** One entry: a tool name (or a name ending in `*`), and for Bash a command pattern. */
interface AllowedTool {
  tool: string;
  command?: string;
}

export class ToolAllowance {
  private readonly allowed: readonly AllowedTool[];

  constructor(entries: readonly string[]) {
    this.allowed = entries.map(parseAllowedTool);
  }

  /** Whether a tool of this name may be offered at all (a Bash with a pattern is offered; its calls are checked). */
  offers(toolName: string): boolean {
    return alwaysAllowed.has(toolName) || this.allowed.some((entry) => nameMatches(entry, toolName));
  }

  /** Whether this call is allowed: its tool listed, and for a pattern its command matching it. */
  permits(call: ToolCallRequest): boolean {
    return alwaysAllowed.has(call.toolName) || this.allowed.some((entry) => matches(entry, call));
  }

  /** The list as the refusal names it: `Read, Bash(git status:*)`. */
  describe(): string {
    return this.allowed.map((entry) => (entry.command === undefined ? entry.tool : `${entry.tool}(${entry.command})`)).join(', ');
  }
}

function parseAllowedTool(text: string): AllowedTool {
  const match = /^([^()]+)\((.*)\)$/.exec(text);
  return match ? { tool: match[1]!.trim(), command: match[2]!.trim() } : { tool: text.trim() };
}

function nameMatches(entry: AllowedTool, toolName: string): boolean {
  return entry.tool.endsWith('*') ? toolName.startsWith(entry.tool.slice(0, -1)) : toolName === entry.tool;
}

function matches(entry: AllowedTool, call: ToolCallRequest): boolean {
  if (!nameMatches(entry, call.toolName)) return false;
  if (entry.command === undefined) return true;
  const command = (call.input as { command?: unknown } | undefined)?.command;
  if (typeof command !== 'string') return false;
  // Claude Code's `git status:*` (and a plain `git status*`): a prefix; anything else: the exact line.
  const prefix = entry.command.endsWith(':*')
    ? entry.command.slice(0, -2)
    : entry.command.endsWith('*')
      ? entry.command.slice(0, -1)
      : undefined;
  return prefix === undefined ? command.trim() === entry.command : command.trimStart().startsWith(prefix);
}
