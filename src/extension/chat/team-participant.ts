/**
 * The `@team` chat participant: "@team review src/foo.ts" runs the coordinator on the request and tells
 * the run in the chat as it goes (see run-in-chat.ts); `/plan` runs the recursive planner, `/workflow
 * <name> <input>` a workflow and `/<name> <args>` the folder's prompt file of that name. A new message after a finished @team answer continues that run (a
 * follow-up that keeps its context); the chat's Stop stops the tree.
 */
import * as vscode from 'vscode';
import {
  errorMessage,
  formatWorkflowProblem,
  type ImagePart,
  isTerminal,
  type StartTaskResult,
  type WorkflowDefinition,
} from '../../engine/index.js';
import { readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import type { ModelSetup } from '../model-setup.js';
import { modelSetupForChat, noModelAdvice } from './chat-model-setup.js';
import { reportRunInChat } from './run-in-chat.js';
import { type PromptReference, withReferences } from './prompt-references.js';
import { teamParticipantId } from '../contribution-ids.js';
import { promptFilesLine, startPromptFileRun, withoutPromptFiles } from './prompt-file-command.js';
export { teamParticipantId };

/** What a finished @team answer remembers: the run it showed, for follow-ups. */
interface TeamResultMetadata {
  rootId: string;
}

export async function handleTeamRequest(
  host: AgentTeamHost,
  request: Pick<vscode.ChatRequest, 'prompt' | 'command' | 'model'> & { references?: readonly PromptReference[] },
  context: Pick<vscode.ChatContext, 'history'>,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const refuse = (message: string): vscode.ChatResult => {
    stream.markdown(message);
    return { errorDetails: { message } };
  };
  if (!vscode.workspace.isTrusted) {
    return refuse(
      vscode.l10n.t(
        'Agents don\u2019t run in Restricted Mode. Trust this folder ("Workspaces: Manage Workspace Trust") to let Agent Team read it and propose edits.',
      ),
    );
  }
  const prompt = request.prompt.trim();
  if (prompt === '') return refuse(`${usage(request.command)} ${request.command === undefined ? await promptFilesLine(host) : ''}`.trim());
  try {
    const setup = modelSetupForChat(await host.setup.modelSetup(), request.model);
    if (!setup) {
      stream.button({ command: 'agentTeam.selectModel', title: vscode.l10n.t('Select Model') });
      return refuse(noModelAdvice());
    }
    // What the user attached (#file, the selection, …) goes with the prompt; a workflow's input is its own words.
    const attached =
      request.command === 'workflow'
        ? { prompt, images: [] }
        : await withReferences(prompt, withoutPromptFiles(request.references ?? []), host.folder()?.uri);
    // `/name …` that VS Code did not take as a declared command: a prompt file of the folder (prompt-file-command.ts).
    const fromPromptFile = request.command === undefined ? await startPromptFileRun(host, prompt, attached, setup) : undefined;
    const started = fromPromptFile ?? (await startRun(host, request.command, attached, setup, previousRunOf(context, host)));
    if (typeof started === 'string') return refuse(started);
    host.log.info(`Chat: started ${started.task.id} (${started.task.role}): ${started.task.description}`);
    const root = await reportRunInChat(
      { taskManager: host.taskManager, pendingFileCount: (rootId) => host.review.pendingFileCount(rootId) },
      started.task.id,
      stream,
      token,
    );
    const metadata: TeamResultMetadata = { rootId: root.id };
    if (root.status === 'completed') return { metadata };
    const ended =
      root.status === 'interrupted'
        ? vscode.l10n.t('The run was interrupted before it finished.')
        : vscode.l10n.t('The run {0}.', root.status);
    return { metadata, errorDetails: { message: root.error ?? ended } };
  } catch (error) {
    return refuse(vscode.l10n.t('Agent Team could not start: {0}', host.redactor.redact(errorMessage(error))));
  }
}

/** Starts the run the request asks for; a string says why it cannot start. */
async function startRun(
  host: AgentTeamHost,
  command: string | undefined,
  attached: { prompt: string; images: ImagePart[] },
  setup: ModelSetup,
  previousRootId: string | undefined,
): Promise<StartTaskResult | string> {
  const { prompt, images } = attached;
  const session = await host.engine();
  await host.historyLoaded;
  const settings = readSettings(vscode.workspace.isTrusted);
  if (command === 'plan') {
    const task = images.length > 0 ? `${prompt}\n\n[${images.length} attached image(s) not sent: a plan is made from text.]` : prompt;
    return session.plan({ task, mode: 'background' }, setup, settings);
  }
  if (command === 'workflow') {
    const [name = '', ...rest] = prompt.split(/\s+/);
    const entries = await session.listWorkflows();
    const entry = entries.find((candidate) => candidate.name === name);
    if (!entry) {
      const known = entries.map((candidate) => candidate.name).join(', ') || 'none yet: add .agent-team/workflows/<name>.yaml';
      return vscode.l10n.t('There is no workflow "{0}". Workflows: {1}. Write "/workflow <name> <input>".', name, known);
    }
    if (!entry.workflow)
      return vscode.l10n.t('The workflow "{0}" cannot run: {1}', entry.name, entry.problems.map(formatWorkflowProblem).join('; '));
    const input = rest.join(' ').trim();
    if (input === '') return vscode.l10n.t('What should the workflow "{0}" work on? Write "/workflow {0} <input>".', entry.name);
    const workflows = new Map<string, WorkflowDefinition>();
    for (const sound of entries) if (sound.workflow) workflows.set(sound.name, sound.workflow);
    return session.runWorkflow({ workflow: entry.workflow, input, workflows, mode: 'background' }, setup, settings);
  }
  if (previousRootId !== undefined)
    return session.followUp({ rootId: previousRootId, message: prompt, images, mode: 'background' }, setup, settings);
  return session.delegate({ prompt, images, mode: 'background', awaitBackgroundTasks: false }, setup, settings);
}

/** The run the last @team answer of this chat showed, when it is a conversation that ended and is still in the history. */
function previousRunOf(context: Pick<vscode.ChatContext, 'history'>, host: AgentTeamHost): string | undefined {
  for (let index = context.history.length - 1; index >= 0; index--) {
    const turn = context.history[index];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== teamParticipantId) continue;
    const rootId = (turn.result.metadata as Partial<TeamResultMetadata> | undefined)?.rootId;
    const root = typeof rootId === 'string' ? host.taskManager.get(rootId) : undefined;
    // A plan or a workflow is a pipeline, not a conversation: the next message starts a new run.
    const conversation = root !== undefined && root.role !== 'plan' && root.role !== 'workflow';
    return root && conversation && root.parentId === null && isTerminal(root.status) ? root.id : undefined;
  }
  return undefined;
}

function usage(command: string | undefined): string {
  if (command === 'workflow')
    return vscode.l10n.t('Write "/workflow <name> <input>": the workflow from .agent-team/workflows and what it should work on.');
  if (command === 'plan') return vscode.l10n.t('Write "/plan <task>": a planner splits the task into sub-tasks and agents do them.');
  return vscode.l10n.t(
    'Tell the team what to do, e.g. "@team review src/parser.ts for error handling". The coordinator plans it and hands the parts to subagents; their edits wait for your review.',
  );
}
