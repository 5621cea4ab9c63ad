/**
 * The language model tool `agentTeam_delegate` {subagent_type, description, prompt}: other agents in
 * the editor (Copilot's agent mode, say) hand work to our team. VS Code asks the user to confirm first
 * (`prepareInvocation`); the run shows in the Agent Team view like any other, its edits stay proposals
 * for the user to review, and the calling agent gets the subagent's answer and a note on those proposals.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import { builtOnFirstUse, coordinatorName, describeTaskChanges, errorMessage } from '../../engine/index.js';
import { readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import { escapeMarkdown } from './markdown-text.js';
import { noModelAdvice } from './chat-model-setup.js';
import { delegateToolName } from '../contribution-ids.js';
export { delegateToolName };

const delegateInputSchema = builtOnFirstUse(() =>
  z.strictObject({
    subagent_type: z.string().trim().min(1).max(64),
    description: z.string().trim().min(1).max(200),
    prompt: z.string().trim().min(1).max(50_000),
  }),
);

export type DelegateToolInput = z.infer<ReturnType<typeof delegateInputSchema>>;

export class DelegateTool implements vscode.LanguageModelTool<DelegateToolInput> {
  constructor(private readonly host: AgentTeamHost) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<DelegateToolInput>): vscode.PreparedToolInvocation {
    const input = parseInput(options.input);
    const shownPrompt = input.prompt.length > 600 ? `${input.prompt.slice(0, 600)}\u2026` : input.prompt;
    const message = new vscode.MarkdownString(undefined, false);
    message.appendMarkdown(
      `${vscode.l10n.t('The **{0}** of Agent Team will work on: {1}', escapeMarkdown(input.subagent_type), escapeMarkdown(input.description))}\n\n`,
    );
    message.appendText(shownPrompt);
    message.appendMarkdown(`\n\n${vscode.l10n.t('Its edits are proposals you review in Agent Team before anything is written.')}`);
    return {
      invocationMessage: vscode.l10n.t('Agent Team: {0} \u2014 {1}', input.subagent_type, input.description),
      confirmationMessages: { title: vscode.l10n.t('Delegate to Agent Team?'), message },
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<DelegateToolInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    if (!vscode.workspace.isTrusted)
      throw new Error('Agent Team does not run agents in Restricted Mode: the user must trust this folder first.');
    const input = parseInput(options.input);
    const host = this.host;
    const setup = await host.setup.modelSetup();
    if (!setup.configured) throw new Error(noModelAdvice());
    const session = await host.engine();
    const roles = session.listRoles().map((role) => role.name);
    if (input.subagent_type !== coordinatorName && !roles.includes(input.subagent_type)) {
      throw new Error(`Agent Team has no subagent "${input.subagent_type}". Use one of: ${[coordinatorName, ...roles].join(', ')}.`);
    }
    await host.historyLoaded;
    const started = await session.delegate(
      {
        prompt: input.prompt,
        description: input.description,
        ...(input.subagent_type === coordinatorName ? {} : { role: input.subagent_type }),
        mode: 'background',
        awaitBackgroundTasks: false,
      },
      setup,
      readSettings(vscode.workspace.isTrusted),
    );
    const rootId = started.task.id;
    host.log.info(`Tool ${delegateToolName}: started ${rootId} (${started.task.role}): ${started.task.description}`);
    const stop = token.onCancellationRequested(() => void host.taskManager.stop(rootId, { kind: 'user' }).catch(() => undefined));
    try {
      const root = await host.taskManager.wait(rootId);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(describeResult(host, root))]);
    } catch (error) {
      throw new Error(`Agent Team's ${input.subagent_type} did not finish: ${errorMessage(error)}`);
    } finally {
      stop.dispose();
    }
  }
}

function parseInput(input: unknown): DelegateToolInput {
  const parsed = delegateInputSchema().safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`);
  throw new Error(`Invalid input for ${delegateToolName}: ${problems.join('; ')}. Expected {subagent_type, description, prompt}.`);
}

function describeResult(host: AgentTeamHost, root: { id: string; role: string; status: string; output?: string; error?: string }): string {
  const ended = root.status === 'interrupted' ? 'was interrupted' : root.status;
  const lines = [`Agent Team's ${root.role} ${ended} (task ${root.id}).`];
  if (root.error) lines.push(`Error: ${root.error}`);
  lines.push(root.output?.trim() ? root.output.trim() : '(no answer)');
  for (const taskId of host.review.tasksWithPendingChanges(root.id)) {
    const changes = describeTaskChanges(host.changes, taskId);
    if (changes) lines.push(changes);
  }
  return host.redactor.redact(lines.join('\n\n'));
}
