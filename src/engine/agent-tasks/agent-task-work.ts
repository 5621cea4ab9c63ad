/**
 * Turns an agent (a role and a prompt) into `TaskWork`: one agent run whose events feed the task manager,
 * with the file tools its role lists, what each capability grants it (capabilities/capability.ts), and
 * the notices of its background tasks and the messages sent to it between turns.
 */
import { runAgent } from '../agent/run-agent.js';
import type { Tool } from '../agent/tool.js';
import type { AgentRunResult } from '../agent/types.js';
import type { AgentProfile, Capability } from '../capabilities/capability.js';
import { gatherGrants, type TaskGrants, withContext } from '../capabilities/task-grants.js';
import { redactKnownSecrets, secretValues } from '../secrets.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import type { WorkspaceToolbox } from '../file-tools/task-tools.js';
import type { Model, ModelMessage } from '../model/types.js';
import type { AgentContextOptions } from '../agent/compaction/compactor.js';
import type { ContextPolicy } from '../agent/compaction/context-policy.js';
import { formatNotice } from '../tasks/notifications.js';
import { answerAfterBackgroundTasks, handedUpNote } from './background-results.js';
import { withAncestorTasks } from '../tasks/ancestor-tasks.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { forwardEvent } from './forward-event.js';
import { withAllowedTools } from './narrowed-tools.js';

/** Everything an agent task needs that does not change from one task to the next. */
export interface AgentTaskEnvironment {
  taskManager: TaskManager;
  /** Each task's view of the workspace: its file tools and the proposals it sees. */
  toolbox: WorkspaceToolbox;
  /** What agents may do beyond files, asked in this order (team/capabilities.ts). */
  capabilities: readonly Capability[];
  /** Messages for running tasks (the user's, and `SendMessage`'s), seen at each task's next turn. */
  inbox: MessageInbox;
  /** Where runs' conversations are kept for follow-ups. Default: none (runs cannot be followed up). */
  conversations?: ConversationStore;
  /** The secrets kept out of every tool result (AgentTeamOptions.secrets). */
  secrets?: () => readonly string[];
  /** Wraps the task's model, to observe its requests (AgentTeamOptions.observeModel). Default: none. */
  observeModel?: (taskId: string, model: Model) => Model;
  /** The models' context windows and when to compact (AgentTeamOptions.context). Default: no window known. */
  context?: ContextPolicy;
}

/** One agent as a task: who it is and how it may work. */
export interface AgentTaskSpec extends AgentProfile {
  system: string;
  /** The task, or (a follow-up) the conversation to continue, ending with the user's new message. */
  prompt: string | ModelMessage[];
  /**
   * Keep the conversation when the run ends, for follow-ups: under `key`, or the task's own id when no
   * key is given (a run's root; a follow-up saves under its run's root). Default: not kept.
   */
  keepConversation?: { key?: string };
  /** The task whose change set this agent's edits go into (a revision's). Default: its own. */
  changeSetOf?: string;
  model: Model;
  maxTurns?: number;
  /** Tools beyond the role's own, for this task only (a workflow loop's `ExitLoop`). Default: none. */
  extraTools?: readonly Tool[];
  /** Narrows this agent's tools, never widens them (a prompt file's `tools`: narrowed-tools.ts). Default: its own tools. */
  allowedTools?: readonly string[];
  /**
   * When the agent gives its final answer while background tasks whose notices come to it still run
   * (background-results.ts): true waits for them and lets the agent update its answer with their results
   * (subagents unless their role hands them up, and the CLI's root, where nobody is left to hear of them
   * later); false ends at once and their notices go to its parent (a role's `backgroundTasks:
   * hand-to-parent`) or, for a root, to the user (the extension, whose sidebar shows them). Default false.
   */
  awaitBackgroundTasks?: boolean;
}

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
    // One snapshot for both: a task's root and its ancestors' tasks are set when it is made.
    const own = environment.taskManager.get(taskId);
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
      ...(grants.nextUserMessage ? { nextUserMessage: grants.nextUserMessage } : {}),
      ...(grants.reviewToolCalls ? { reviewToolCalls: grants.reviewToolCalls } : {}),
      ...(grants.afterToolCalls ? { afterToolCalls: grants.afterToolCalls } : {}),
      ...(grants.reviewFinish ? { reviewFinish: grants.reviewFinish } : {}),
      ...(grants.endRequested ? { endRequested: grants.endRequested } : {}),
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

/**
 * The user's prompt as the agent gets it: reviewed first (a UserPromptSubmit hook may refuse it or add
 * context). A conversation continued (a follow-up) is reviewed by its last message, the user's new one.
 */
async function reviewedPrompt(
  prompt: string | ModelMessage[],
  review: NonNullable<TaskGrants['reviewUserPrompt']>,
  signal: AbortSignal,
): Promise<{ prompt: string | ModelMessage[]; refused?: string }> {
  if (typeof prompt === 'string') {
    const verdict = await review(prompt, signal);
    return verdict.refused !== undefined ? { prompt, refused: verdict.refused } : { prompt: withContext(prompt, verdict.context) };
  }
  const last = prompt.at(-1);
  if (last?.role !== 'user') return { prompt };
  const text = last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  const verdict = await review(text, signal);
  if (verdict.refused !== undefined) return { prompt, refused: verdict.refused };
  if (verdict.context.length === 0) return { prompt };
  const added = withContext('', verdict.context).trimStart();
  return { prompt: [...prompt.slice(0, -1), { ...last, content: [...last.content, { type: 'text', text: added }] }] };
}

/** The task's window (its model's), when it compacts, and who hears of a compaction or asks for one. */
function contextOptions(policy: ContextPolicy, inbox: MessageInbox, model: Model, taskId: string, grants: TaskGrants): AgentContextOptions {
  const windowTokens = policy.windowOf(`${model.provider}/${model.modelId}`);
  const compactAt = policy.compactAt;
  return {
    ...(windowTokens === undefined ? {} : { windowTokens }),
    ...(compactAt === undefined ? {} : { compactAt }),
    ...(grants.beforeCompaction ? { beforeCompaction: grants.beforeCompaction } : {}),
    takeCompactionRequest: () => inbox.takeCompaction(taskId),
  };
}

function toWorkResult(result: AgentRunResult): TaskWorkResult {
  if (result.status === 'completed' || result.status === 'stopped') return { status: 'completed', output: result.output };
  return { status: 'failed', output: result.output, error: result.error ?? `the run ended as ${result.status}` };
}
