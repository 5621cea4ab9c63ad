/**
 * A skill's `allowed-tools`, honoured as a narrowing: once an agent loads a skill that has the field, its
 * tool calls must be among the listed tools until its task ends (loading a second such skill narrows to
 * what both allow). It never widens: a listed tool the agent's role does not have stays out of reach,
 * since the call is refused before, by the loop, for an unknown tool. Claude Code's command patterns
 * (`Bash(git status:*)`) narrow Bash to lines beginning so; the user's command rules still apply after.
 * Always allowed: `Skill` (loading text widens nothing) and the tools that end or pause a task
 * (`CompleteTask`, `AskUser`), so a narrowed `task` agent can still finish.
 */
import type { ToolCallRequest } from '../agent/types.js';
import { type SkillDefinition } from './skill-definition.js';
import { skillToolName } from './skill-tool.js';

const alwaysAllowed = new Set([skillToolName, 'CompleteTask', 'AskUser']);

/** One entry of `allowed-tools`: a tool name (or a name ending in `*`), and for Bash a command pattern. */
interface AllowedTool {
  tool: string;
  command?: string;
}

export class SkillNarrowing {
  /** Each narrowing skill in use, with its list: a call must pass every one. */
  private readonly active: Array<{ skill: string; allowed: AllowedTool[] }> = [];

  constructor(private readonly skills: readonly SkillDefinition[]) {}

  /** Refusals for the turn's calls, in order: a Skill call narrows the calls after it in the same turn. */
  review(calls: readonly ToolCallRequest[]): Map<string, string> {
    const refused = new Map<string, string>();
    for (const call of calls) {
      const why = this.refusal(call);
      if (why !== undefined) {
        refused.set(call.toolCallId, why);
        continue;
      }
      if (call.toolName === skillToolName) this.use(call.input);
    }
    return refused;
  }

  private use(input: unknown): void {
    const { name, file } = (input ?? {}) as { name?: unknown; file?: unknown };
    if (file !== undefined) return;
    const skill = this.skills.find((each) => each.name === name);
    if (!skill?.allowedTools || this.active.some((each) => each.skill === skill.name)) return;
    this.active.push({ skill: skill.name, allowed: skill.allowedTools.map(parseAllowedTool) });
  }

  private refusal(call: ToolCallRequest): string | undefined {
    if (alwaysAllowed.has(call.toolName)) return undefined;
    for (const { skill, allowed } of this.active) {
      if (!allowed.some((entry) => matches(entry, call))) {
        const names = allowed.map((entry) => (entry.command === undefined ? entry.tool : `${entry.tool}(${entry.command})`)).join(', ');
        return `Refused: you are using the skill "${skill}", which allows only ${names}. ${call.toolName} is not among them.`;
      }
    }
    return undefined;
  }
}

function parseAllowedTool(text: string): AllowedTool {
  const match = /^([^()]+)\((.*)\)$/.exec(text);
  return match ? { tool: match[1]!.trim(), command: match[2]!.trim() } : { tool: text.trim() };
}

function matches(entry: AllowedTool, call: ToolCallRequest): boolean {
  const nameMatches = entry.tool.endsWith('*') ? call.toolName.startsWith(entry.tool.slice(0, -1)) : call.toolName === entry.tool;
  if (!nameMatches) return false;
  if (entry.command === undefined) return true;
  const command = (call.input as { command?: unknown } | undefined)?.command;
  if (typeof command !== 'string') return false;
  // Claude Code's `git status:*` (and a plain `git status*`): a prefix; anything else: the exact line.
  const prefix = entry.command.endsWith(':*') ? entry.command.slice(0, -2) : entry.command.endsWith('*') ? entry.command.slice(0, -1) : undefined;
  return prefix === undefined ? command.trim() === entry.command : command.trimStart().startsWith(prefix);
}
