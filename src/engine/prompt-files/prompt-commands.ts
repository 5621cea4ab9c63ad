/**
 * `/name args`, as the CLI (`agent-team run /fix the parser`) and `@team` both take it: which prompt
 * file it names, and what to run: the prompt with its arguments put in, its model, and who runs it.
 * The folder's only where it is trusted (and, in the CLI, only as it was trusted): a prompt file is an
 * order written by the repository; the user's own commands (`~/.claude/commands`) anywhere. A text that only looks like a path (`/etc/hosts is wrong`) is no command.
 */
import { expandPromptArguments, PromptArgumentError } from './prompt-arguments.js';
import type { PromptFile } from './prompt-file-definition.js';
import { findPromptFiles } from './prompt-file-sources.js';
import { promptFileTools } from './prompt-file-tools.js';
import type { KnownTools } from '../roles/known-tools.js';

/** What a prompt file runs. */
export interface PromptRun {
  promptFile: PromptFile;
  /** The prompt with its arguments put in. */
  prompt: string;
  /** The model (`model`). Default: the run's. */
  model?: string;
  /** The role that runs it, from `agent` / `mode` (`ask`: researcher, `edit`: refactorer, `agent`: the coordinator). Default: the coordinator. */
  role?: string;
  /** What narrows the root agent's tools (`tools` / `allowed-tools`: prompt-file-tools.ts). Default: the role's tools. */
  allowedTools?: readonly string[];
  /** Tool names of the file that allow nothing here, for the user. */
  warnings: string[];
}

export interface PromptCommandPlace {
  root: string;
  /** False where the folder is not trusted: none of its prompt files is read (the user's own still are). */
  trusted: boolean;
  /** The user's home, for their own commands (`~/.claude/commands`). Default: none read. */
  home?: string;
  /** How the user trusts the folder, for the refusal. */
  howToTrust: string;
  /** Whether the user trusted this exact file (the CLI's list). Default: every file of a trusted folder. */
  trustsPromptFile?(promptFile: PromptFile): boolean;
  /** The tool names a file's `tools` may mean (known-tools.ts): the role registry's `knownTools`. */
  knownTools: KnownTools;
}

/** `/name` and the rest, when `text` starts with a command's name; undefined for any other text. */
export function slashCommandOf(text: string): { name: string; argumentsText: string } | undefined {
  const match = /^\/([A-Za-z0-9][A-Za-z0-9_.-]{0,63})(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? { name: match[1]!, argumentsText: (match[2] ?? '').trim() } : undefined;
}

/** The run `/name args` asks for, or an error for the user (no such prompt file, a missing input, an untrusted folder). */
export async function resolvePromptCommand(
  command: { name: string; argumentsText: string },
  place: PromptCommandPlace,
): Promise<{ run: PromptRun } | { error: string }> {
  const found = await findPromptFiles(place.root, {
    workspaceAllowed: place.trusted,
    ...(place.home === undefined ? {} : { home: place.home }),
  });
  const promptFile = found.promptFiles.find((each) => each.name.toLowerCase() === command.name.toLowerCase());
  if (!promptFile) {
    if (!place.trusted)
      return {
        error: `/${command.name}: this folder is not trusted, so its prompt files (.github/prompts, .claude/commands) are not read; to use them, ${place.howToTrust}.`,
      };
    const why = found.problems.find((problem) => problem.includes(`/${command.name}`) || problem.includes(`/${command.name}.`));
    const known =
      found.promptFiles.map((each) => `/${each.name}`).join(', ') ||
      'none: add .github/prompts/<name>.prompt.md or .claude/commands/<name>.md';
    return { error: `There is no prompt file /${command.name}${why ? ` (${why})` : ''}. Prompt files: ${known}.` };
  }
  // The user's own commands are theirs: the folder's trust says nothing about them.
  if (promptFile.scope === 'workspace' && place.trustsPromptFile && !place.trustsPromptFile(promptFile))
    return {
      error: `/${command.name}: ${promptFile.label} was added or changed after the folder was trusted; to use it, ${place.howToTrust}.`,
    };
  try {
    const prompt = expandPromptArguments(promptFile.body, command.argumentsText, { name: promptFile.name, root: place.root });
    const role = roleOf(promptFile.agent);
    const { allowedTools, warnings } = promptFileTools(promptFile, place.knownTools);
    return {
      run: {
        promptFile,
        prompt,
        ...(promptFile.model ? { model: promptFile.model } : {}),
        ...(role ? { role } : {}),
        ...(allowedTools ? { allowedTools } : {}),
        warnings,
      },
    };
  } catch (error) {
    if (error instanceof PromptArgumentError) return { error: error.message };
    throw error;
  }
}

/** VS Code's modes as our roles; any other name is a role (a custom agent's) of its own. */
function roleOf(agent: string | undefined): string | undefined {
  if (agent === undefined || agent === 'agent') return undefined;
  if (agent === 'ask') return 'researcher';
  if (agent === 'edit') return 'refactorer';
  return agent;
}
