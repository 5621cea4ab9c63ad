/**
 * `@team /fix the parser`: a prompt file of the folder (`.github/prompts/fix.prompt.md`,
 * `.claude/commands/fix.md`) or the user's own command (`~/.claude/commands/fix.md`) run from the Chat view. VS Code takes a participant's commands only from
 * package.json, so `/plan` and `/workflow` are declared there and a prompt file's `/name` arrives as the
 * start of the prompt (no `request.command`): it is recognised here. Its arguments are put in, its
 * `agent` chooses the role, its `tools` narrow that agent's tools; what the user attached goes with it. The folder is trusted here (@team
 * refuses in Restricted Mode before this).
 *
 * VS Code reads `.github/prompts` itself: it attaches the file to the request (a reference whose id
 * starts `vscode.prompt.file`, dropped here since the prompt is expanded instead), and it refuses to send
 * a request whose prompt file names a `model` it does not offer. So a prompt file's `model` is first a
 * model VS Code offers (by id, name, or "name (vendor)", as VS Code writes it): the run uses that one; any
 * other name (a `.claude/commands` file's `claude-sonnet-4-5`) is a model id of the configured provider.
 */
import * as vscode from 'vscode';
import { findPromptFiles, knownToolNames, resolvePromptCommand, slashCommandOf, type StartTaskResult } from '../../engine/index.js';
import { readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import type { ModelSetup } from '../model-setup.js';
import { vscodeLmProvider } from '../language-model/language-model-errors.js';
import type { PromptReference } from './prompt-references.js';

/** VS Code's own attachment of a prompt file it recognised: the participant expands the file instead. */
const promptFileReferencePrefix = 'vscode.prompt.file';

/** Starts the prompt file `prompt` names; a string says why not; undefined when the prompt names none (`/etc/hosts …` included). */
export async function startPromptFileRun(
  host: AgentTeamHost,
  prompt: string,
  attached: { prompt: string },
  setup: ModelSetup,
): Promise<StartTaskResult | string | undefined> {
  const command = slashCommandOf(prompt);
  const root = host.folder()?.uri.fsPath;
  if (!command || root === undefined) return undefined;
  const resolved = await resolvePromptCommand(command, {
    root,
    home: host.userHome(),
    trusted: vscode.workspace.isTrusted,
    howToTrust: 'trust it with "Workspaces: Manage Workspace Trust"',
    knownTools: knownToolNames,
  });
  if ('error' in resolved) return resolved.error;
  const { run } = resolved;
  // The attachments withReferences added after the user's words go after the prompt file's text.
  const attachments = attached.prompt.startsWith(prompt) ? attached.prompt.slice(prompt.length) : '';
  const session = await host.engine();
  await host.historyLoaded;
  const settings = readSettings(vscode.workspace.isTrusted);
  return session.delegate(
    {
      prompt: `${run.prompt}${attachments}`,
      ...(run.role ? { role: run.role } : {}),
      ...(run.allowedTools ? { allowedTools: run.allowedTools } : {}),
      description: prompt.slice(0, 80),
      mode: 'background',
      awaitBackgroundTasks: false,
    },
    run.model === undefined ? setup : await setupWithModel(setup, run.model),
    settings,
  );
}

/** The setup with the prompt file's model: a model VS Code offers by that name, else the provider's model of that id. */
async function setupWithModel(setup: ModelSetup, model: string): Promise<ModelSetup> {
  const offered = await vscode.lm.selectChatModels();
  const chatModel = offered.find((each) => each.id === model || each.name === model || `${each.name} (${each.vendor})` === model);
  return chatModel ? { ...setup, provider: vscodeLmProvider, model: chatModel.id, configured: true } : { ...setup, model };
}

/** The attachments but VS Code's own of a prompt file (the participant runs the file itself). */
export function withoutPromptFiles(references: readonly PromptReference[]): PromptReference[] {
  return references.filter((reference) => !reference.id.startsWith(promptFileReferencePrefix));
}

/** The folder's prompt files and the user's commands as a line for the chat's help: `/fix` (its description), …; empty when there are none. */
export async function promptFilesLine(host: AgentTeamHost): Promise<string> {
  const root = host.folder()?.uri.fsPath;
  if (root === undefined || !vscode.workspace.isTrusted) return '';
  const { promptFiles } = await findPromptFiles(root, { home: host.userHome() });
  if (promptFiles.length === 0) return '';
  return vscode.l10n.t('Prompt files of this folder: {0}.', promptFiles.map((each) => `/${each.name} (${each.description})`).join(', '));
}
