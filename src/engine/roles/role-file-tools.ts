/**
 * A role file's `tools` and `disallowedTools`: a list or Claude Code's comma-separated string, mapped to
 * the engine's names through the aliases of the file's format (tool-aliases.ts), checked against the tools
 * the capabilities declare (known-tools.ts); MCP servers' and VS Code's tool names are set aside for the
 * capabilities that know them (server-tool-names.ts).
 */
import type { KnownTools } from './known-tools.js';
import type { RoleFileLocation } from './role-file-locations.js';
import { splitServerTools } from './server-tool-names.js';
import { readToolList } from './tool-aliases.js';
import type { ToolName } from './tool-names.js';

/** Reports a problem of one front-matter field (at its line). */
export type FieldReport = (field: string, message: string) => void;

export function readTools(
  value: unknown,
  field: string,
  { location, knownTools }: { location: RoleFileLocation; knownTools: KnownTools },
  errorAt: FieldReport,
  warnAt: FieldReport,
  /** Gets the entries naming MCP servers' or VS Code's tools (server-tool-names.ts). Default: they count as unknown names. */
  collectServerTools?: (named: string[]) => void,
): ToolName[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let entries: string[];
  if (typeof value === 'string') entries = splitToolString(value);
  else if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) entries = value;
  else {
    errorAt(field, `'${field}' must be a list of tool names, e.g. [Read, Grep, Glob]`);
    return undefined;
  }
  if (collectServerTools) {
    const split = splitServerTools(entries);
    collectServerTools(split.serverTools);
    entries = split.rest;
  }
  const reading = readToolList(entries, location.format, knownTools);
  for (const warning of reading.warnings) warnAt(field, warning);
  return reading.tools;
}

/** Splits `Read, Grep, Bash(git add:*, git commit:*)` on the commas outside parentheses. */
function splitToolString(text: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of text) {
    if (character === '(') depth++;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (character === ',' && depth === 0) {
      entries.push(current);
      current = '';
    } else current += character;
  }
  entries.push(current);
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
}
