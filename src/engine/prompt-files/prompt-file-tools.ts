/**
 * A prompt file's `tools` (VS Code) or a command's `allowed-tools` (Claude Code) as the list that narrows
 * the run's root agent (DelegateRequest.allowedTools): each name in the engine's spelling, through the
 * aliases role files use (VS Code's `editFiles`, `codebase`, `runCommands`, Copilot's `search/codebase`,
 * Claude Code's `MultiEdit`), Claude Code's command patterns kept (`Bash(git status:*)`), MCP and VS Code
 * tool names (`mcp__calc__*`, `vscode__*`) as written. A name that means none of our tools allows nothing
 * and is reported: the list only ever narrows.
 */
import { readToolList } from '../roles/tool-aliases.js';
import type { KnownTools } from '../roles/known-tools.js';
import type { RoleFileFormat } from '../roles/types.js';
import type { PromptFile } from './prompt-file-definition.js';

export interface PromptFileTools {
  /** The list, in Claude Code's form with our names; undefined when the file names no tools. */
  allowedTools?: readonly string[];
  /** Names that allow nothing here, said once for the user. */
  warnings: string[];
}

export function promptFileTools(
  promptFile: Pick<PromptFile, 'name' | 'tools' | 'label'>,
  /** The tool names the capabilities declare (known-tools.ts). */
  knownTools: KnownTools,
): PromptFileTools {
  if (promptFile.tools === undefined) return { warnings: [] };
  const format: RoleFileFormat = promptFile.label.includes('.github/') ? 'github' : 'claude';
  const allowed: string[] = [];
  const unknown: string[] = [];
  for (const entry of promptFile.tools) {
    const restricted = /^([^()]+)\((.*)\)$/.exec(entry);
    const name = restricted ? restricted[1]!.trim() : entry;
    if (name === '*' || /^(mcp|vscode)__/i.test(name) || name === 'Skill') {
      allowed.push(entry);
      continue;
    }
    const mapped = readToolList([name], format, knownTools).tools ?? [];
    if (mapped.length === 0) unknown.push(entry);
    for (const tool of mapped) allowed.push(restricted ? `${tool}(${restricted[2]!.trim()})` : tool);
  }
  const warnings =
    unknown.length === 0
      ? []
      : [
          `/${promptFile.name} (${promptFile.label}): ${unknown.map((name) => `'${name}'`).join(', ')} ${unknown.length === 1 ? 'is no tool' : 'are no tools'} of Agent Team, so ${unknown.length === 1 ? 'it allows' : 'they allow'} nothing; the run has only the other tools the file names`,
        ];
  return { allowedTools: [...new Set(allowed)], warnings };
}
