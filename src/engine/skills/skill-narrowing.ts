/**
 * A skill's `allowed-tools`, honoured as a narrowing: once an agent loads a skill that has the field, its
 * tool calls must be among the listed tools until its task ends (loading a second such skill narrows to
 * what both allow). It never widens: a listed tool the agent's role does not have stays out of reach,
 * since the call is refused before, by the loop, for an unknown tool. Claude Code's command patterns
 * (`Bash(git status:*)`) narrow Bash to lines beginning so; the user's command rules still apply after.
 * The reading of the list, and what is always allowed, are tool-allowance.ts's.
 */
import type { ToolCallRequest } from '../agent/types.js';
import { type SkillDefinition } from './skill-definition.js';
import { skillToolName } from './skill-tool.js';
import { ToolAllowance } from './tool-allowance.js';

export class SkillNarrowing {
  /** Each narrowing skill in use, with its list: a call must pass every one. */
  private readonly active: Array<{ skill: string; allowed: ToolAllowance }> = [];

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
    this.active.push({ skill: skill.name, allowed: new ToolAllowance(skill.allowedTools) });
  }

  private refusal(call: ToolCallRequest): string | undefined {
    for (const { skill, allowed } of this.active) {
      if (!allowed.permits(call))
        return `Refused: you are using the skill "${skill}", which allows only ${allowed.describe()}. ${call.toolName} is not among them.`;
    }
    return undefined;
  }
}
