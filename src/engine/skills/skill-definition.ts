/**
 * One Agent Skill (the `SKILL.md` format Claude Code, Copilot and Codex share): YAML front matter with
 * `name`, `description` and optionally `allowed-tools`, then a Markdown body the agent reads only when it
 * uses the skill. Parsing never echoes the file: a problem names the file and the field, not the text.
 */
import { parseYamlHeader, splitFrontMatter } from '../roles/front-matter.js';

/** Where a skill was found: the workspace's folders (repository content) or the user's own. */
export type SkillScope = 'workspace' | 'user';

export interface SkillDefinition {
  name: string;
  description: string;
  /** The tools an agent keeps once it uses the skill (a narrowing, never a widening). Default: no narrowing. */
  allowedTools?: readonly string[];
  /** The Markdown after the front matter, cut with a note when the file was longer than `maxSkillFileBytes`. */
  body: string;
  scope: SkillScope;
  /** The skill's folder: workspace-relative (`.claude/skills/pdf`) or home-relative (`.claude/skills/pdf`). */
  folder: string;
  /** How it is named to the user and the agent: `.claude/skills/pdf/SKILL.md` or `~/.claude/skills/pdf/SKILL.md`. */
  label: string;
  /** `sha256:` of the whole file, what the user's trust in a folder is recorded against. */
  digest: string;
}

/** The limits where skills enter: a skill is small text, and an agent's prompt lists them all. */
export const skillLimits = {
  /** Bytes of one SKILL.md read; a longer one is cut with a note. */
  fileBytes: 64 * 1024,
  /** Skills read from one folder (`.claude/skills`); the rest are reported, not read. */
  perFolder: 100,
  /** Characters of a description (the Agent Skills specification's own limit). */
  descriptionChars: 1024,
  /** Characters of the list of skills in a system prompt; the rest are named as not listed. */
  listingChars: 12 * 1024,
  /** Files of a skill's folder listed for the agent, and how deep. */
  listedFiles: 100,
  listedDepth: 4,
  /** Bytes of one file of a skill read through `Skill {name, file}`. */
  resourceBytes: 256 * 1024,
} as const;

/** Lower-case letters, digits and hyphens, at most 64: the specification's names, and safe in a tool call and a path. */
export const skillNamePattern = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export type ParsedSkill = { skill: SkillDefinition } | { problem: string };

/** The skill in `text` (the file `label` in `folder`, whose name is the fallback name). */
export function parseSkillFile(
  text: string,
  place: { folder: string; folderName: string; label: string; scope: SkillScope; digest: string; cut: boolean },
): ParsedSkill {
  const problem = (why: string): ParsedSkill => ({ problem: `${place.label} was not used: ${why}` });
  const split = splitFrontMatter(text);
  if (!split.ok) return problem(split.message);
  const header = parseYamlHeader(split.value);
  if (!header.ok) return problem(header.message);
  const fields = header.value.fields;
  const name = fields.name ?? place.folderName;
  if (typeof name !== 'string' || !skillNamePattern.test(name))
    return problem('its name must be lower-case letters, digits and hyphens (at most 64), like its folder');
  if (name !== place.folderName)
    return problem(`its name "${name}" is not its folder's ("${place.folderName}"), as the Agent Skills format requires`);
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '')
    return problem('it has no description (agents choose a skill by its description)');
  const allowed = allowedToolsOf(fields['allowed-tools']);
  if (allowed === null) return problem('its allowed-tools is neither a list of tool names nor a comma-separated string');
  const note = place.cut ? `\n\n[${place.label} is cut here: only the first ${skillLimits.fileBytes / 1024} KB of a skill are given.]` : '';
  return {
    skill: {
      name,
      description: oneLine(description).slice(0, skillLimits.descriptionChars),
      ...(allowed === undefined ? {} : { allowedTools: allowed }),
      body: `${split.value.body.trim()}${note}`,
      scope: place.scope,
      folder: place.folder,
      label: place.label,
      digest: place.digest,
    },
  };
}

/** Claude Code writes `allowed-tools: Read, Grep, Bash(git status:*)`; others a YAML list. Null: neither. */
function allowedToolsOf(value: unknown): readonly string[] | undefined | null {
  if (value === undefined || value === null) return undefined;
  const items =
    typeof value === 'string'
      ? splitToolList(value)
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? (value as string[])
        : null;
  if (items === null) return null;
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** Commas separate; outside parentheses, so does white space (`Bash(git add:*) Read`). */
function splitToolList(text: string): string[] {
  const items: string[] = [];
  let current = '';
  let depth = 0;
  for (const character of text) {
    if (character === '(') depth++;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (character === ',' || /\s/.test(character))) {
      items.push(current);
      current = '';
    } else current += character;
  }
  items.push(current);
  return items;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
