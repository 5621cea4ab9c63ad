/**
 * Agent Skills, as a capability: every agent's system prompt names the skills found (name and
 * description, no more), with the `Skill` tool to load one; the body and the files reach the model only
 * through that call (progressive disclosure), and a skill's `allowed-tools` narrows the agent's tools from
 * then on (skill-narrowing.ts). Only agents whose tools include `Skill` get them (every role without a tool
 * list, the coordinator and the built-in roles; a role file that lists tools names it). Skills are read at each task's start. The workspace's are repository
 * content: none is read where the folder is not trusted, and in a folder trusted for an exact list (the
 * CLI) one added or changed since is not used. The transcript names the skills offered.
 */
import type { Capability } from '../capabilities/capability.js';
import { skillToolNames } from '../roles/tool-names.js';
import type { SkillDefinition } from './skill-definition.js';
import { skillLimits } from './skill-definition.js';
import { SkillNarrowing } from './skill-narrowing.js';
import { findSkills } from './skill-sources.js';
import { createSkillTool } from './skill-tool.js';

export interface SkillSettings {
  /** The workspace root. */
  root: string;
  /** The user's home, for their own skills. Default: none read. */
  home?: string;
  /** False where the folder is not trusted: its skills are not read. The user's are. */
  workspaceAllowed(): boolean;
  /** Whether the user trusted this exact workspace skill (the CLI's list). Default: every skill of a trusted folder. */
  trustsSkill?(skill: SkillDefinition): boolean;
}

export function skillsCapability(settings: SkillSettings): Capability {
  return {
    name: 'skills',
    async grant(task) {
      // A role whose tool list leaves Skill out goes without skills (one without a list has it: role-tools.ts).
      if (!task.agent.tools.some((tool) => skillToolNames.includes(tool))) return undefined;
      const found = await findSkills({
        root: settings.root,
        ...(settings.home === undefined ? {} : { home: settings.home }),
        workspaceAllowed: settings.workspaceAllowed(),
      });
      const problems = [...found.problems];
      const skills = found.skills.filter((skill) => {
        if (skill.scope !== 'workspace' || !settings.trustsSkill || settings.trustsSkill(skill)) return true;
        problems.push(`${skill.label} was not used: it was added or changed after the folder was trusted (trust it again to use it)`);
        return false;
      });
      if (skills.length === 0) return problems.length > 0 ? { notices: problems } : undefined;
      const narrowing = new SkillNarrowing(skills);
      return {
        tools: [createSkillTool(skills, { root: settings.root, ...(settings.home === undefined ? {} : { home: settings.home }) })],
        instructions: listing(skills),
        notices: [`Skills offered: ${skills.map((skill) => skill.name).join(', ')}`, ...problems],
        reviewToolCalls: (calls) => Promise.resolve(narrowing.review(calls)),
      };
    },
  };
}

/** The system prompt's part: each skill's name and description, within `listingChars`. */
function listing(skills: readonly SkillDefinition[]): string {
  const lines: string[] = [];
  let length = 0;
  for (const skill of skills) {
    const line = `- ${skill.name}: ${skill.description}`;
    if (length + line.length > skillLimits.listingChars) {
      lines.push(`- (${skills.length - lines.length} more skills, not listed here: load one by name if you know it)`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return `# Skills\nSkills are instructions for particular kinds of work. When the task matches a skill's description, load it with the Skill tool (Skill {"name": "<name>"}) before you start, and follow it.\n${lines.join('\n')}`;
}
