/**
 * Puts a command's arguments into its prompt, as Claude Code and VS Code do:
 * - `$ARGUMENTS`: everything after `/name`; `$1` … `$9`: its words (quotes group words, as a shell's do),
 *   an absent one empty (Claude Code's);
 * - `${input:name}` / `${input:name:placeholder}` (VS Code's): the value of `name=value` in the arguments.
 *   Nobody is asked for a missing one (a terminal run may have nobody to ask): the run does not start,
 *   and the error says how to give it;
 * - `${workspaceFolder}` and `${workspaceFolderBasename}`: the workspace; VS Code's editor variables
 *   (`${file}`, `${selection}`, …) mean nothing to a run and stay as written;
 * - a prompt that uses none of them gets the arguments appended (`ARGUMENTS: …`), as Claude Code does.
 */
import path from 'node:path';
import { AgentTeamError } from '../errors.js';

export class PromptArgumentError extends AgentTeamError {
  override readonly name: string = 'PromptArgumentError';
  readonly code = 'prompt-arguments';
}

export function expandPromptArguments(body: string, argumentsText: string, options: { name: string; root: string }): string {
  const words = splitWords(argumentsText);
  const inputs = namedValues(words);
  let used = false;
  const missing = new Set<string>();
  let text = body.replace(/\$\{input:([A-Za-z_][A-Za-z0-9_-]*)(?::[^}]*)?\}/g, (_whole, name: string) => {
    used = true;
    const value = inputs.get(name);
    if (value === undefined) missing.add(name);
    return value ?? '';
  });
  if (missing.size > 0) {
    const names = [...missing];
    throw new PromptArgumentError(
      `/${options.name} needs ${names.map((name) => `\${input:${name}}`).join(', ')}: give ${names.length === 1 ? 'it' : 'them'} after the name, as ${names.map((name) => `${name}=<value>`).join(' ')}`,
    );
  }
  text = text.replace(/\$(ARGUMENTS\b|[1-9](?![0-9]))/g, (_whole, which: string) => {
    used = true;
    return which.startsWith('ARGUMENTS') ? argumentsText : (words[Number(which) - 1] ?? '');
  });
  text = text.replace(/\$\{workspaceFolder\}/g, options.root).replace(/\$\{workspaceFolderBasename\}/g, path.basename(options.root));
  return !used && argumentsText !== '' ? `${text}\n\nARGUMENTS: ${argumentsText}` : text;
}

/** Words as a shell splits them: white space separates, `"…"` and `'…'` group (`name="a b"` is one word, quotes dropped). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/(?:"[^"]*"|'[^']*'|[^\s"']+)+/g)) {
    words.push(match[0].replace(/"([^"]*)"|'([^']*)'/g, (_quoted, double?: string, single?: string) => double ?? single ?? ''));
  }
  return words;
}

/** `name=value` words (VS Code's way of giving a prompt file's inputs in the chat). */
function namedValues(words: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const word of words) {
    const match = /^([A-Za-z_][A-Za-z0-9_-]*)=(.*)$/s.exec(word);
    if (match) values.set(match[1]!, match[2]!);
  }
  return values;
}
