/**
 * A prompt file (VS Code's `.github/prompts/<name>.prompt.md`) or a custom command (Claude Code's
 * `.claude/commands/<name>.md`): optional YAML front matter, then the prompt, run as `/name args`.
 * Front matter read: `description`, `model`, `agent` (VS Code; `mode` is its older name: `ask`, `edit`,
 * `agent` or a custom agent's name), `tools` (VS Code) or `allowed-tools` (Claude Code), `argument-hint`.
 * Other fields are ignored. Parsing never echoes the file: a problem names the file and the field.
 */
import { parseYamlHeader, splitFrontMatter } from '../roles/front-matter.js';

/** Whose it is: the workspace's (repository content, under folder trust) or the user's own (`~/.claude/commands`). */
export type PromptFileScope = 'workspace' | 'user';

export interface PromptFile {
  /** What follows the `/`: the file's name without `.prompt.md` / `.md`. */
  name: string;
  /** `.github/prompts/fix.prompt.md`, `.claude/commands/fix.md` or `~/.claude/commands/fix.md`. */
  label: string;
  scope: PromptFileScope;
  /** Default: the start of the prompt. */
  description: string;
  /** The model the prompt runs with (`model`). Default: the run's. */
  model?: string;
  /** Who runs it (`agent` / `mode`), as written. Default: the coordinator. */
  agent?: string;
  /** The tools it may use (`tools` / `allowed-tools`), as written. Default: the role's. */
  tools?: readonly string[];
  /** What the arguments should be, shown beside the name (`argument-hint`). Default: none. */
  argumentHint?: string;
  /** The prompt, before its arguments are put in (prompt-arguments.ts). */
  body: string;
  /** `sha256:` of the whole file, what the user's trust in a folder is recorded against. */
  digest: string;
}

/** The limits where prompt files enter. */
export const promptFileLimits = {
  /** Bytes of one prompt file; a longer one is not used (a prompt cut short would be a different order). */
  fileBytes: 64 * 1024,
  /** Files read from one folder; the rest are reported. */
  perFolder: 200,
  /** Characters of a description shown in lists. */
  descriptionChars: 200,
} as const;

/** Letters, digits, `-`, `_` and `.`, starting with a letter or digit: what can follow a `/` in a chat. */
export const promptNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type ParsedPromptFile = { promptFile: PromptFile } | { problem: string };

export function parsePromptFile(
  text: string,
  place: { name: string; label: string; digest: string; scope: PromptFileScope },
): ParsedPromptFile {
  const problem = (why: string): ParsedPromptFile => ({ problem: `${place.label} was not used: ${why}` });
  // Front matter is optional: a Claude Code command is often the prompt alone.
  const startsWithHeader = /^\uFEFF?---\s*(\r?\n|$)/.test(text);
  let fields: Record<string, unknown> = {};
  let body = text.replace(/^\uFEFF/, '');
  if (startsWithHeader) {
    const split = splitFrontMatter(text);
    if (!split.ok) return problem(split.message);
    const header = parseYamlHeader(split.value);
    if (!header.ok) return problem(header.message);
    fields = header.value.fields;
    body = split.value.body;
  }
  const strings: Record<string, string | undefined> = {};
  for (const field of ['description', 'model', 'agent', 'mode', 'argument-hint']) {
    const value = fields[field];
    if (value !== undefined && value !== null && typeof value !== 'string') return problem(`its ${field} is not text`);
    strings[field] = typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  }
  const tools = toolListOf(fields.tools ?? fields['allowed-tools']);
  if (tools === null) return problem('its tools is neither a list of tool names nor a comma-separated string');
  const prompt = body.trim();
  if (prompt === '') return problem('it has no prompt after its front matter');
  const agent = strings.agent ?? strings.mode;
  return {
    promptFile: {
      name: place.name,
      label: place.label,
      scope: place.scope,
      description: oneLine(strings.description ?? prompt).slice(0, promptFileLimits.descriptionChars),
      ...(strings.model ? { model: strings.model } : {}),
      ...(agent ? { agent } : {}),
      ...(tools ? { tools } : {}),
      ...(strings['argument-hint'] ? { argumentHint: oneLine(strings['argument-hint']) } : {}),
      body: prompt,
      digest: place.digest,
    },
  };
}

function toolListOf(value: unknown): readonly string[] | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return (value as string[]).map((item) => item.trim()).filter((item) => item !== '');
  return null;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
