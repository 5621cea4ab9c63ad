/**
 * `agent-team run /fix the parser`: a task that starts with a prompt file's name runs that prompt file
 * (.github/prompts/fix.prompt.md, .claude/commands/fix.md, or the user's ~/.claude/commands/fix.md), its arguments put in, with its `model` and
 * its `agent`. No such file, a missing `${input:…}` or an untrusted folder: a usage error (exit 2), before
 * anything starts. `--agent` wins over the file's `agent`; the flags' model is used where it names none.
 * Its `tools` / `allowed-tools` narrow the root agent's tools, whichever role runs it.
 */
import { homedir } from 'node:os';
import { ConfigurationError, type ModelChooser, promptFileItem, resolvePromptCommand, slashCommandOf } from '../engine/index.js';
import type { CliEngine } from './cli-engine.js';

export interface PromptCommandDelegation {
  prompt: string;
  /** Undefined: the coordinator. */
  role?: string;
  /** Undefined: the run's models. */
  modelFor?: ModelChooser;
  /** What the task list shows: `/fix the parser`. */
  description: string;
  /** The file's `tools` / `allowed-tools`, narrowing the root agent (DelegateRequest.allowedTools). Default: the role's. */
  allowedTools?: readonly string[];
  /** Tool names of the file that allow nothing, for stderr. */
  warnings: string[];
}

/** The delegation `task` asks for when it is `/name args`; undefined for any other task. */
export async function promptCommandDelegation(
  task: string,
  agentFlag: string | undefined,
  engine: Pick<CliEngine, 'workspace' | 'folderTrust' | 'modelFor' | 'roles'>,
): Promise<PromptCommandDelegation | undefined> {
  const command = slashCommandOf(task);
  if (!command) return undefined;
  const { trusted, trustsItem, howToTrust } = engine.folderTrust;
  const resolved = await resolvePromptCommand(command, {
    root: engine.workspace.root,
    home: homedir(),
    trusted,
    howToTrust,
    trustsPromptFile: (promptFile) => trustsItem(promptFileItem(promptFile)),
    knownTools: engine.roles.knownTools,
  });
  if ('error' in resolved) throw new ConfigurationError(resolved.error);
  const { run } = resolved;
  const role = agentFlag ?? run.role;
  if (agentFlag === undefined && role !== undefined && !engine.roles.get(role)) {
    const known = engine.roles
      .list()
      .map((each) => each.name)
      .join(', ');
    throw new ConfigurationError(
      `/${run.promptFile.name} (${run.promptFile.label}): its agent "${run.promptFile.agent ?? role}" is no role here (ask, edit, agent, or a role: ${known}).`,
    );
  }
  const model = run.model;
  return {
    prompt: run.prompt,
    ...(role ? { role } : {}),
    // A role file's own model still wins for its role; the prompt file's is the run's otherwise.
    ...(model ? { modelFor: (roleName: string, override?: string) => engine.modelFor(roleName, override ?? model) } : {}),
    description: task.trim().slice(0, 80),
    ...(run.allowedTools ? { allowedTools: run.allowedTools } : {}),
    warnings: run.warnings,
  };
}
