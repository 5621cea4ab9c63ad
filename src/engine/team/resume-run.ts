/**
 * Resume: every interrupted task of a run goes on in place, parents first, each from its conversation at
 * its last completed turn (run log), with the work it was doing set up as before (the coordinator or its
 * role, the conversation kept under the same key, a revision's edits into the same proposal). A parent
 * that was waiting on a foreground subagent gets that subagent's result when the resumed child ends, the
 * way the `Agent` tool would have handed it over.
 */
import { ConfigurationError } from '../errors.js';
import { formatTaskResult } from '../delegation/task-result-text.js';
import type { ModelMessage } from '../model/types.js';
import { coordinatorName } from '../roles/coordinator.js';
import type { RoleDefinition } from '../roles/types.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskSnapshot } from '../tasks/types.js';
import type { TaskWork } from '../tasks/work.js';
import { type RecordedResult, resumedConversation, unansweredCalls } from './resumed-conversation.js';
import type { WorkOptions } from './team-run.js';
import type { ModelChooser } from './team-options.js';

export interface ResumeRequest {
  /** The run: its root task's id. */
  runId: string;
  source: ResumeSource;
  /** For the run's root: see `DelegateRequest.awaitBackgroundTasks`. Default false. */
  awaitBackgroundTasks?: boolean;
  /** The models the resumed agents use. Default: the team's `modelFor`. */
  modelFor?: ModelChooser;
}

/** What the run log recorded of each task (runs/run-log-reader.ts). */
export interface ResumeSource {
  /** The task's conversation at its last turn boundary; undefined when it never reached its first turn. */
  conversation(taskId: string): readonly ModelMessage[] | undefined;
  /** Tool results recorded after that conversation, by tool call id. */
  recordedResults(taskId: string): ReadonlyMap<string, RecordedResult>;
}

/** How a task's agent is built again (TeamRun's coordinatorWork and roleWork). */
export interface ResumeWorkers {
  coordinator(prompt: string | ModelMessage[], awaitBackgroundTasks: boolean, options: WorkOptions): TaskWork;
  role(role: RoleDefinition, prompt: string | ModelMessage[], depth: number, awaitBackgroundTasks: boolean, options: WorkOptions): TaskWork;
}

export interface ResumeParts {
  taskManager: TaskManager;
  roles: { get(name: string): RoleDefinition | undefined };
  keepSubagentConversations?: boolean;
}

/** The run's interrupted tasks, checked: each must be an agent's (a workflow's or a plan's own task is not). */
export function interruptedTasks(parts: ResumeParts, runId: string): TaskSnapshot[] {
  const root = parts.taskManager.get(runId);
  if (!root)
    throw new ConfigurationError(
      `There is no run ${runId} in the history: it may have been cleared or removed by the history's retention.`,
    );
  if (root.parentId !== null)
    throw new ConfigurationError(`Task ${root.id} is part of run ${root.rootId}; resume the run itself (${root.rootId}).`);
  const tree = parts.taskManager.treeOf(runId);
  const interrupted = tree.filter((task) => task.status === 'interrupted');
  if (interrupted.length === 0) {
    const running = tree.some((task) => task.status === 'running' || task.status === 'queued' || task.status === 'waiting');
    throw new ConfigurationError(
      running
        ? `Run ${runId} is running already.`
        : `Run ${runId} has nothing interrupted to resume (it ${root.status}); send a follow-up to go on from it.`,
    );
  }
  const notAgents = interrupted.filter(
    (task) =>
      task.role !== coordinatorName && (parts.roles.get(task.role) === undefined || parts.roles.get(task.role)?.a2aUrl !== undefined),
  );
  if (notAgents.length > 0) {
    const names = notAgents.map((task) => `${task.id} (${task.role})`).join(', ');
    throw new ConfigurationError(
      `Run ${runId} cannot be resumed: ${names} ${notAgents.length === 1 ? 'is' : 'are'} not a local agent's conversation (a workflow, a plan, a remote agent, or a role that no longer exists). Run the task again instead.`,
    );
  }
  return interrupted;
}

/** Resumes them, parents first; returns at once with their snapshots (wait on the root for the end). */
export async function resumeTasks(
  parts: ResumeParts,
  workers: ResumeWorkers,
  source: ResumeSource,
  tasks: readonly TaskSnapshot[],
  awaitBackgroundTasks: boolean,
): Promise<TaskSnapshot[]> {
  const resumed = new Set(tasks.map((task) => task.id));
  // All in one pass, before any of their work starts: a parent that waits for a child must find the child
  // already resumed, not its interrupted record.
  return Promise.all(
    tasks.map((task) =>
      parts.taskManager.resume(task.id, resumedWork(parts, workers, source, task, resumed, task.parentId === null && awaitBackgroundTasks)),
    ),
  );
}

function resumedWork(
  parts: ResumeParts,
  workers: ResumeWorkers,
  source: ResumeSource,
  task: TaskSnapshot,
  resumed: ReadonlySet<string>,
  awaitBackgroundTasks: boolean,
): TaskWork {
  const recorded = source.conversation(task.id);
  const options = workOptions(parts, task);
  const build = (prompt: string | ModelMessage[]) =>
    task.role === coordinatorName
      ? workers.coordinator(prompt, awaitBackgroundTasks, { ...options, depth: task.depth })
      : workers.role(parts.roles.get(task.role) as RoleDefinition, prompt, task.depth, awaitBackgroundTasks, options);
  // Never got to its first turn: it starts as it would have.
  if (!recorded) return build(task.prompt);
  const children = waitedChildren(parts.taskManager, task, recorded, resumed);
  return async (context) => {
    const answers = new Map<string, RecordedResult>(source.recordedResults(task.id));
    // The slot goes to the children while this task only waits for them (TaskManager.wait with waiterId).
    const ended = await Promise.all(
      [...children].map(
        async ([callId, childId]) =>
          [callId, await parts.taskManager.wait(childId, { signal: context.signal, waiterId: task.id })] as const,
      ),
    );
    for (const [callId, child] of ended) answers.set(callId, { output: formatTaskResult(child), isError: false });
    return build(resumedConversation(recorded, answers))(context);
  };
}

/**
 * The task's unanswered `Agent` calls whose subagent is being resumed too, by call id → child id: the
 * foreground children it started with exactly that role, title and task (each child matched once).
 */
function waitedChildren(
  taskManager: TaskManager,
  task: TaskSnapshot,
  conversation: readonly ModelMessage[],
  resumed: ReadonlySet<string>,
): Map<string, string> {
  const candidates = taskManager.children(task.id).filter((child) => resumed.has(child.id) && !child.background && !child.followUp);
  const matched = new Map<string, string>();
  for (const call of unansweredCalls(conversation)) {
    if (call.toolName !== 'Agent') continue;
    const input = (call.input ?? {}) as { subagent_type?: unknown; description?: unknown; prompt?: unknown };
    const prompt = typeof input.prompt === 'string' && input.prompt.trim() !== '' ? input.prompt : input.description;
    const child = candidates.find(
      (candidate) =>
        candidate.role === input.subagent_type &&
        candidate.description === input.description &&
        candidate.prompt === prompt &&
        ![...matched.values()].includes(candidate.id),
    );
    if (child) matched.set(call.toolCallId, child.id);
  }
  return matched;
}

/** Where its conversation is kept and whose proposal its edits change, as when it first started. */
function workOptions(parts: ResumeParts, task: TaskSnapshot): WorkOptions {
  if (task.parentId === null) return { keepConversation: {} };
  if (task.followUp) {
    const parent = parts.taskManager.get(task.parentId);
    // A follow-up of a run keeps the run's conversation; a revision keeps the revised task's and edits its proposal.
    return parent?.parentId === null
      ? { keepConversation: { key: parent.id } }
      : { keepConversation: { key: task.parentId }, changeSetOf: task.parentId };
  }
  return parts.keepSubagentConversations ? { keepConversation: {} } : {};
}
