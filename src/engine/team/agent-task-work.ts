/**
 * Turns a role and a prompt into `TaskWork`: one agent run whose events feed the task manager, with the
 * tools the role may use, the delegation tools while depth allows, and background notices between turns.
 */
import { runAgent } from '../agent/run-agent.js';
import type { Tool } from '../agent/tool.js';
import type { AgentEvent, AgentRunResult } from '../agent/types.js';
import type { Model, ModelMessage } from '../model/types.js';
import { formatNotice } from '../tasks/notifications.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { isTerminal } from '../tasks/types.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import type { AgentRunOptions } from '../agent/types.js';
import { type Completion, createAskUserTool, createCompleteTaskTool } from '../conversation/conversation-tools.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import type { UserChannel } from '../conversation/user-channel.js';
import { createAgentTool } from './delegation/agent-tool.js';
import { createSendMessageTool } from './delegation/send-message-tool.js';
import type { RoleMode } from './roles/types.js';
import type { DelegatorTools } from './delegation/delegation-reach.js';
import type { DelegationScope, RosterEntry } from './delegation/delegation-scope.js';
import { createTaskOutputTool } from './delegation/task-output-tool.js';
import { createTaskStopTool } from './delegation/task-stop-tool.js';
import type { ToolName } from './roles/tool-names.js';
import type { WorkspaceToolbox } from './task-tools.js';
import { type McpHost, type RoleMcpTools, startRoleMcpServers } from '../mcp/mcp-role-tools.js';
import type { McpServers } from '../mcp/mcp-server-config.js';
import { type FanOutPolicy, fanOutReview } from './delegation/fan-out.js';
import { createBashTool } from '../commands/bash-tool.js';
import type { CommandHost } from '../commands/command-host.js';

/** Everything an agent task needs that does not change from one task to the next. */
export interface AgentTaskEnvironment {
  taskManager: TaskManager;
  toolbox: WorkspaceToolbox;
  /** The roster as an agent with these tools sees it (roles beyond its reach marked). */
  roster(delegator: DelegatorTools): RosterEntry[];
  /** The work for a subagent of `role` at `depth`. */
  subagentWork(role: string, prompt: string, depth: number): TaskWork;
  describeChanges?(taskId: string): string | undefined;
  /** Delegation is offered while `depth < maxDepth`. */
  maxDepth: number;
  autoBackgroundMs: number;
  /** Messages for running tasks (the user's, and `SendMessage`'s), seen at each task's next turn. */
  inbox: MessageInbox;
  /** How task-mode and chat agents reach the user. Default: none (they are told no user is available). */
  userChannel?: UserChannel;
  /** Where runs' conversations are kept for follow-ups. Default: none (runs cannot be followed up). */
  conversations?: ConversationStore;
  /** How roles' MCP servers start, and whether they may. Default: none start (each role is told so). */
  mcp?: McpHost;
  /** When a turn starting many subagents needs the user's yes. Default: any number may start. */
  fanOut?: FanOutPolicy;
  /** Where `Bash` runs commands, and who allows them. Default: none (roles that list Bash go without it). */
  commands?: CommandHost;
  /** The secrets kept out of every tool result (AgentTeamOptions.secrets). */
  secrets?: () => readonly string[];
}

/** One agent as a task: who it is and how it may work. */
export interface AgentTaskSpec {
  role: string;
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
  /** The role's MCP servers: started with the task, their tools offered as `mcp__<server>__<tool>`. */
  mcpServers?: McpServers;
  model: Model;
  /** Workspace tool names the role may use (delegation tools are decided by `mayDelegate` and depth). */
  tools: readonly ToolName[];
  /** True when the role may delegate at all (depth still decides). */
  mayDelegate: boolean;
  /** What its subagents may be: roles within these tools, or `all` (the coordinator). */
  reach: DelegatorTools;
  depth: number;
  maxTurns?: number;
  /** How the agent relates to the user (seed 001): `task` and `chat` agents get `AskUser` and `CompleteTask`. Default `single_turn`. */
  mode?: RoleMode;
  /** Tools beyond the role's own, for this task only (a workflow loop's `ExitLoop`). Default: none. */
  extraTools?: readonly Tool[];
  /**
   * When the agent gives its final answer while subagents it started in the background still run: true
   * waits for them and lets the agent update its answer with their results (the CLI, where nobody is left
   * to hear of them later); false ends at once and lets them run on (the extension, whose sidebar shows
   * them and notifies when they end). Default false.
   */
  awaitBackgroundTasks?: boolean;
}

/** Rounds of "your background tasks ended, update your answer" at most, so a chatty agent cannot loop. */
const maxFollowUpRounds = 3;

export function agentTaskWork(environment: AgentTaskEnvironment, spec: AgentTaskSpec): TaskWork {
  return async (context) => {
    context.setModel(`${spec.model.provider}/${spec.model.modelId}`);
    const mcp = await startRoleMcpServers(spec.mcpServers ?? {}, environment.mcp, context.signal);
    try {
      for (const problem of mcp.problems) context.appendTranscript({ type: 'notice', text: problem });
      return await runAgentTask(environment, spec, context, mcp);
    } finally {
      await mcp.close();
    }
  };
}

async function runAgentTask(environment: AgentTaskEnvironment, spec: AgentTaskSpec, context: TaskWorkContext, mcp: RoleMcpTools): Promise<TaskWorkResult> {
  const tools = [...toolsForTask(environment, spec, context), ...mcp.tools];
  const talk = talkingToTheUser(environment, spec, context);
  tools.push(...talk.tools);
  // The agent hears of servers it counted on that did not start, so it can say what it could not do.
  const mcpNote = mcp.problems.length > 0 ? `\n\n# Unavailable tools\n${mcp.problems.join('\n')}` : '';
  const takeNotices = () => [...environment.taskManager.takeNotifications(context.taskId).map(formatNotice), ...environment.inbox.take(context.taskId)];
  const run = (prompt: string | ModelMessage[]) =>
    runAgent({
      model: spec.model,
      system: `${talk.tools.length > 0 ? `${spec.system}\n\n${talkingInstruction(spec.mode ?? 'single_turn')}` : spec.system}${mcpNote}`,
      prompt,
      tools,
      maxTurns: spec.maxTurns,
      signal: context.signal,
      onEvent: (event) => forwardEvent(context, event),
      takeNotices,
      finishAfterTools: talk.finishAfterTools,
      ...(environment.secrets ? { secrets: environment.secrets } : {}),
      nextUserMessage: talk.nextUserMessage,
      ...(environment.fanOut ? { reviewToolCalls: fanOutReview(environment.fanOut, { taskId: context.taskId, role: spec.role }) } : {}),
    });

  let result = await run(spec.prompt);
  for (let round = 0; spec.awaitBackgroundTasks && result.status === 'completed' && round < maxFollowUpRounds; round++) {
    const running = environment.taskManager.children(context.taskId).filter((task) => !isTerminal(task.status));
    if (running.length === 0) break;
    // Only waiting: the slot goes to the tasks waited for (TaskManager.wait with waiterId).
    await Promise.all(running.map((task) => environment.taskManager.wait(task.id, { signal: context.signal, waiterId: context.taskId })));
    if (context.signal.aborted) break;
    const notices = takeNotices();
    if (notices.length === 0) break;
    const followUp: ModelMessage = {
      role: 'user',
      content: [{ type: 'text', text: `${notices.join('\n\n')}\n\nAll background tasks you started have now ended. Update your final answer for the user with their results.` }],
    };
    result = await run([...result.messages, followUp]);
  }
  if (spec.keepConversation && environment.conversations) {
    // A failure to keep it must not fail the task: the follow-up will say the conversation is gone.
    await environment.conversations.save(spec.keepConversation.key ?? context.taskId, result.messages).catch(() => undefined);
  }
  return toWorkResult(result);
}

function toolsForTask(environment: AgentTaskEnvironment, spec: AgentTaskSpec, context: TaskWorkContext): Tool[] {
  const taskId = context.taskId;
  const allowed = new Set<string>(spec.tools);
  const workspaceTools = environment.toolbox({ taskId, role: spec.role, ...(spec.changeSetOf === undefined ? {} : { changeSetOf: spec.changeSetOf }) });
  const tools = [...workspaceTools.readOnly, ...workspaceTools.edit].filter((tool) => allowed.has(tool.name));
  if (allowed.has('Bash') && environment.commands) {
    tools.push(
      createBashTool({
        host: environment.commands,
        taskId,
        rootId: environment.taskManager.get(taskId)?.rootId ?? taskId,
        role: spec.role,
        proposals: workspaceTools.proposals,
        waitForUser: (waitedFor) => context.waitForUser(waitedFor),
      }),
    );
  }
  tools.push(...(spec.extraTools ?? []));
  if (spec.mayDelegate && spec.depth < environment.maxDepth) {
    const scope: DelegationScope = {
      taskManager: environment.taskManager,
      parentTaskId: taskId,
      roster: () => environment.roster(spec.reach),
      workFor: (role, prompt) => environment.subagentWork(role, prompt, spec.depth + 1),
      autoBackgroundMs: environment.autoBackgroundMs,
      describeChanges: environment.describeChanges,
    };
    tools.push(createAgentTool(scope), createTaskOutputTool(scope), createTaskStopTool(scope), createSendMessageTool(scope, environment.inbox));
  }
  return tools;
}

/** What a `task` or `chat` agent adds to its run: the tools, when its run ends, and the chat's next turn. */
function talkingToTheUser(environment: AgentTaskEnvironment, spec: AgentTaskSpec, context: TaskWorkContext): Pick<AgentRunOptions, 'finishAfterTools' | 'nextUserMessage'> & { tools: Tool[] } {
  const mode = spec.mode ?? 'single_turn';
  if (mode === 'single_turn') return { tools: [] };
  const completion: Completion = {};
  const channel = environment.userChannel;
  return {
    tools: [createAskUserTool(channel, context, spec.role), createCompleteTaskTool(completion)],
    finishAfterTools: () => completion.result,
    // A chat goes on after each answer with the user's reply, until CompleteTask or the user ends it.
    nextUserMessage:
      mode === 'chat' && channel
        ? (answer) => (completion.result !== undefined ? Promise.resolve(undefined) : context.waitForUser(() => channel.ask({ taskId: context.taskId, role: spec.role, kind: 'chat', text: answer }, context.signal)))
        : undefined,
  };
}

function talkingInstruction(mode: RoleMode): string {
  const base = '# Working with the user\nIf you cannot go on without the user (a decision, a fact only they know), ask with AskUser: you wait for the answer. When your task is done, call CompleteTask with its result.';
  return mode === 'chat' ? `${base} This is a conversation: after each of your answers the user may reply, until you call CompleteTask or they end the chat.` : base;
}

/** Feeds an agent run's events to its task: streamed text, transcript entries, usage. */
export function forwardEvent(context: TaskWorkContext, event: AgentEvent): void {
  switch (event.type) {
    case 'text-delta':
      context.appendText(event.text);
      break;
    case 'transcript':
      context.appendTranscript(event.entry);
      break;
    case 'usage':
      context.reportUsage(event.usage);
      break;
    case 'turn-start':
      break;
  }
}

function toWorkResult(result: AgentRunResult): TaskWorkResult {
  if (result.status === 'completed' || result.status === 'stopped') return { status: 'completed', output: result.output };
  return { status: 'failed', output: result.output, error: result.error ?? `the run ended as ${result.status}` };
}
