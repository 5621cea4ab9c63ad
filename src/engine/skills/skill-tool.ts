/**
 * The `Skill {name, file?}` tool: progressive disclosure. The system prompt names each skill with its
 * description only; calling `Skill {name}` returns the skill's body and the list of its other files, and
 * `Skill {name, file}` one of those files. `use` is told of each skill used, so the narrowing of
 * `allowed-tools` (skill-narrowing.ts) applies from that call on.
 */
import * as z from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { defineTool, type Tool } from '../agent/tool.js';
import type { SkillDefinition } from './skill-definition.js';
import { listSkillFiles, readSkillResource, type SkillFolders, skillFolderPath } from './skill-files.js';

export const skillToolName = 'Skill';

const skillInput = builtOnFirstUse(() =>
  z.object({
    name: z.string().describe('The name of the skill, as listed under "Skills".'),
    file: z
      .string()
      .optional()
      .describe("One of the skill's files, relative to its folder, as listed when the skill was loaded. Omit to load the skill itself."),
  }),
);

export function createSkillTool(skills: readonly SkillDefinition[], folders: SkillFolders): Tool<z.infer<ReturnType<typeof skillInput>>> {
  return defineTool({
    name: skillToolName,
    description:
      'Loads a skill: its instructions, and the list of its files (read one with `file`). Use a skill when the task matches its description; then follow its instructions.',
    inputSchema: skillInput(),
    readOnly: true,
    async execute(input) {
      const skill = skills.find((each) => each.name === input.name);
      if (!skill) throw new Error(`There is no skill "${input.name}". Skills: ${skills.map((each) => each.name).join(', ') || 'none'}.`);
      if (input.file !== undefined) return readSkillResource(skill, folders, input.file);
      return loadedSkillText(skill, folders);
    },
  });
}

async function loadedSkillText(skill: SkillDefinition, folders: SkillFolders): Promise<string> {
  const folder = skillFolderPath(skill, folders);
  const listed = folder === undefined ? { files: [], more: false } : await listSkillFiles(folder);
  const where =
    skill.scope === 'workspace'
      ? `Its folder is ${skill.folder} in the workspace: read its files with Read (or Skill with \`file\`); a script of it runs only through Bash, where Bash is allowed.`
      : `Its folder is the user's own (~/${skill.folder}), outside the workspace: read its files with Skill {"name": "${skill.name}", "file": "<file>"}.`;
  const files =
    listed.files.length === 0
      ? 'It has no other files.'
      : `Its files:\n${listed.files.map((file) => `- ${file}`).join('\n')}${listed.more ? '\n- … (more, not listed)' : ''}`;
  const narrowing =
    skill.allowedTools === undefined ? '' : `\nWhile you use this skill, only these tools are allowed: ${skill.allowedTools.join(', ')}.`;
  return `# Skill: ${skill.name} (${skill.label})\n${where}${narrowing}\n${files}\n\n${skill.body}`;
}
