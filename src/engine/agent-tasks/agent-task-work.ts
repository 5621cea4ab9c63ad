/**
 * Turns an agent (a role and a prompt) into `TaskWork`: one agent run whose events feed the task manager,
 * with the file tools its role lists, what each capability grants it (capabilities/capability.ts), and
 * the notices of its background tasks and the messages sent to it between turns.
 */
import { runAgent } from '../agent/run-agent.js';
import type { Tool } from '../agent/tool.js';
import type { AgentRunResult } from '../agent/types.js';
import { gatherGrants, type TaskGrants } from '../capabilities/task-grants.js';
import { redactKnownSecrets, secretValues } from '../secrets.js';
import type { ModelMessage } from '../model/types.js';
import { formatNotice } from '../tasks/notifications.js';
import { answerAfterBackgroundTasks, handedUpNote } from './background-results.js';
import { withAncestorTasks } from '../tasks/ancestor-tasks.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { forwardEvent } from './forward-event.js';
import type { AgentTaskEnvironment, AgentTaskSpec } from './agent-task-spec.js';
import { withAllowedTools } from './narrowed-tools.js';
import { reviewedPrompt } from './reviewed-prompt.js';
import { contextOptions } from './task-context-options.js';

export type { AgentTaskEnvironment, AgentTaskSpec } from './agent-task-spec.js';

export function agentTaskWork(environment: AgentTaskEnvironment, spec: AgentTaskSpec): TaskWork {
  return async (context) => {
    context.setModel(`${spec.model.provider}/${spec.model.modelId}`);
    const taskId = context.taskId;
    if (environment.observeModel) spec = { ...spec, model: environment.observeModel(taskId, spec.model) };
    const files = environment.toolbox({
      taskId,
      role: spec.role,
      ...(spec.changeSetOf === undefined ? {} : { changeSetOf: spec.changeSetOf }),
    });
    // A task's root and its ancestors' tasks are set when it is made (no snapshot: B1).
    const own = environment.taskManager.placeOf(taskId);
    const rootId = own?.rootId ?? taskId;
    const secrets = environment.secrets;
    const redact = (text: string) => (secrets ? redactKnownSecrets(text, secretValues(secrets())) : text);
    const grants = await gatherGrants(environment.capabilities, { taskId, rootId, agent: spec, context, files, redact });
    try {
      for (const notice of grants.notices) context.appendTranscript({ type: 'notice', text: notice });
      const review = grants.reviewUserPrompt
        ? await reviewedPrompt(spec.prompt, grants.reviewUserPrompt, context.signal)
        : { prompt: spec.prompt };
      if (review.refused !== undefined)
        return { status: 'failed', output: '', error: `The prompt was not given to the agent: ${review.refused}` };
      const allowed = new Set<string>(spec.tools);
      const fileTools = [...files.readOnly, ...files.edit].filter((tool) => allowed.has(tool.name));
      // The tasks this one is part of come before it, once, in its first message (tasks/ancestor-tasks.ts).
      const prompt = typeof review.prompt === 'string' ? withAncestorTasks(review.prompt, own?.ancestorTasks) : review.prompt;
      const narrowed = withAllowedTools([...fileTools, ...(spec.extraTools ?? []), ...grants.tools], grants, spec.allowedTools);
      if (narrowed.notice) context.appendTranscript({ type: 'notice', text: narrowed.notice });
      return await runAgentTask(environment, { ...spec, prompt }, context, narrowed.grants, narrowed.tools);
    } finally {
      await grants.release();
    }
  };
}

async function runAgentTask(
  environment: AgentTaskEnvironment,
  spec: AgentTaskSpec,
  context: TaskWorkContext,
  grants: TaskGrants,
  tools: Tool[],
): Promise<TaskWorkResult> {
  const system = [spec.system, ...grants.instructions].join('\n\n');
  const takeNotices = () => [
    ...environment.taskManager.takeNotifications(context.taskId).map(formatNotice),
    ...environment.inbox.take(context.taskId),
    ...grants.takeNotices(),
  ];
  const run = (prompt: string | ModelMessage[]) =>
    runAgent({
      model: spec.model,
      system,
      prompt,
      tools,
      maxTurns: spec.maxTurns,
      signal: context.signal,
      onEvent: (event) => forwardEvent(context, event),
      takeNotices,
      ...(environment.secrets ? { secrets: environment.secrets } : {}),
      stopWhen: grants.stopWhen,
      ...(grants.reviewToolCalls ? { reviewToolCalls: grants.reviewToolCalls } : {}),
      ...(grants.afterToolCalls ? { afterToolCalls: grants.afterToolCalls } : {}),
      ...(environment.context
        ? { context: contextOptions(environment.context, environment.inbox, spec.model, context.taskId, grants) }
        : {}),
    });

  const first = await run(spec.prompt);
  const result = spec.awaitBackgroundTasks
    ? await answerAfterBackgroundTasks({ taskManager: environment.taskManager, context, takeNotices, run }, first)
    : {
        ...first,
        output: first.status === 'completed' ? first.output + handedUpNote(environment.taskManager, context.taskId) : first.output,
      };
  if (spec.keepConversation && environment.conversations) {
    // A failure to keep it must not fail the task: the follow-up will say the conversation is gone.
    await environment.conversations.save(spec.keepConversation.key ?? context.taskId, result.messages).catch(() => undefined);
  }
  return toWorkResult(result);
}

function toWorkResult(result: AgentRunResult): TaskWorkResult {
  if (result.status === 'completed' || result.status === 'stopped') return { status: 'completed', output: result.output };
  return { status: 'failed', output: result.output, error: result.error ?? `the run ended as ${result.status}` };
}
