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
import { createAgentTool } from './delegation/agent-tool.js';
import type { DelegatorTools } from './delegation/delegation-reach.js';
import type { DelegationScope, RosterEntry } from './delegation/delegation-scope.js';
import { createTaskOutputTool } from './delegation/task-output-tool.js';
import { createTaskStopTool } from './delegation/task-stop-tool.js';
import type { ToolName } from './roles/tool-names.js';
import type { WorkspaceToolbox } from './task-tools.js';

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
}

/** One agent as a task: who it is and how it may work. */
export interface AgentTaskSpec {
  role: string;
  system: string;
  prompt: string;
  model: Model;
  /** Workspace tool names the role may use (delegation tools are decided by `mayDelegate` and depth). */
  tools: readonly ToolName[];
  /** True when the role may delegate at all (depth still decides). */
  mayDelegate: boolean;
  /** What its subagents may be: roles within these tools, or `all` (the coordinator). */
  reach: DelegatorTools;
  depth: number;
  maxTurns?: number;
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
    const tools = toolsForTask(environment, spec, context.taskId);
    const takeNotices = () => environment.taskManager.takeNotifications(context.taskId).map(formatNotice);
    const run = (prompt: string | ModelMessage[]) =>
      runAgent({
        model: spec.model,
        system: spec.system,
        prompt,
        tools,
        maxTurns: spec.maxTurns,
        signal: context.signal,
        onEvent: (event) => forwardEvent(context, event),
        takeNotices,
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
    return toWorkResult(result);
  };
}

function toolsForTask(environment: AgentTaskEnvironment, spec: AgentTaskSpec, taskId: string): Tool[] {
  const allowed = new Set<string>(spec.tools);
  const workspaceTools = environment.toolbox({ taskId, role: spec.role });
  const tools = [...workspaceTools.readOnly, ...workspaceTools.edit].filter((tool) => allowed.has(tool.name));
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
    tools.push(createAgentTool(scope), createTaskOutputTool(scope), createTaskStopTool(scope));
  }
  return tools;
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
