/**
 * The engine's front door: the CLI, the extension and the protocol servers start runs through an
 * `AgentTeam` (built by `createEngine`). It ties the roles, the models, the workspace tools, the
 * capabilities and the task manager together; the task manager's event stream is what callers watch.
 */
import { ConfigurationError } from '../errors.js';
import { defaultLimits } from '../limits.js';
import { describePrompt } from '../tasks/describe-prompt.js';
import { MessageInbox } from '../conversation/message-inbox.js';
import { describeImage, userMessageWithImages } from '../model/image-parts.js';
import type { ImagePart, ModelMessage } from '../model/types.js';
import { workflowWork } from '../workflows/run-workflow.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { StartTaskOptions, StartTaskResult, TaskWork } from '../tasks/work.js';
import type { RosterEntry } from '../delegation/delegation-scope.js';
import { coordinatorName } from '../roles/coordinator.js';
import type { DelegatorTools } from '../roles/tool-names.js';
import type { AgentTeamOptions } from './team-options.js';
import type { DelegateRequest, FollowUpRequest, PlanRequest, RevisionRequest, WorkflowRunRequest } from './run-requests.js';
import { followedRun, revisedTask } from './continuations.js';
import { interruptedTasks, type ResumeRequest, resumeTasks } from './resume-run.js';
import type { TaskSnapshot } from '../tasks/types.js';
import { TeamRoster } from './team-roster.js';
import { TeamRun } from './team-run.js';

export type { AgentTeamOptions, ModelChooser } from './team-options.js';
export type { DelegateRequest, FollowUpRequest, PlanRequest, RevisionRequest, WorkflowRunRequest } from './run-requests.js';
export type { ResumeRequest, ResumeSource } from './resume-run.js';

/** What every run request has: its models, where it runs, its budget. */
type RunBasics = Pick<DelegateRequest, 'modelFor' | 'mode' | 'maxTokens' | 'maxUsd' | 'a2aHops'>;

/** The task a run starts as, but for its work, mode and budget. */
type RunTask = Omit<StartTaskOptions, 'work' | 'mode' | 'maxTokens' | 'maxUsd'>;

export class AgentTeam {
  /** Messages for running tasks: the user's (`sendMessage`) and the agents' (`SendMessage`). */
  readonly inbox: MessageInbox;
  private readonly rosters: TeamRoster;

  constructor(private readonly options: AgentTeamOptions) {
    this.inbox = options.inbox ?? new MessageInbox(options.taskManager);
    this.rosters = new TeamRoster(options.roles, options.delegationReach);
  }

  /**
   * A message from the user to a running task, seen at its next turn. Throws a `TaskError` saying why
   * for an unknown or finished task.
   */
  sendMessage(taskId: string, message: string): void {
    this.inbox.deliver(taskId, 'the user', message);
  }

  get taskManager(): TaskManager {
    return this.options.taskManager;
  }

  /** The roles a subagent may take, as the coordinator's `Agent` tool lists them. */
  roster(): RosterEntry[] {
    return this.rosterFor('all');
  }

  /** The roster as an agent with `delegator` tools sees it: roles beyond its reach are marked. */
  rosterFor(delegator: DelegatorTools): RosterEntry[] {
    return this.rosters.for(delegator);
  }

  /** Starts a run for the user: the coordinator, or one role directly. */
  async delegate(request: DelegateRequest): Promise<StartTaskResult> {
    const prompt = request.prompt.trim();
    if (prompt === '') throw new ConfigurationError('The task is empty: say what the agents should do.');
    const roleName = request.role ?? coordinatorName;
    const awaitBackground = request.awaitBackgroundTasks ?? false;
    const task = {
      parentId: null,
      role: roleName,
      description: request.description ?? describePrompt(prompt),
      prompt: withImageNames(prompt, request.images),
    };
    const first = request.images?.length ? [imageMessage(prompt, request.images)] : prompt;
    const options = { keepConversation: {}, ...(request.allowedTools ? { allowedTools: request.allowedTools } : {}) };
    return this.startRun(request, task, (run) => {
      if (roleName === coordinatorName) return run.coordinatorWork(first, awaitBackground, options);
      const role = this.options.roles.get(roleName);
      if (!role) {
        const known = this.options.roles
          .list()
          .map((entry) => entry.name)
          .join(', ');
        throw new ConfigurationError(`Unknown role "${roleName}". Known roles: ${known}.`);
      }
      return run.roleWork(role, first, 0, awaitBackground, options);
    });
  }

  /**
   * Starts a workflow run: the root task (role `workflow`, described by the workflow's name) runs the
   * steps as tasks below it. `workflows` resolves steps that run another workflow by name.
   */
  async runWorkflow(request: WorkflowRunRequest): Promise<StartTaskResult> {
    const input = request.input.trim();
    if (input === '') throw new ConfigurationError(`The workflow "${request.workflow.name}" needs an input: say what it should work on.`);
    const task = { parentId: null, role: 'workflow', description: request.workflow.name, prompt: input };
    return this.startRun(request, task, (run) =>
      workflowWork(
        {
          taskManager: this.options.taskManager,
          agentWork: (role, prompt, tools) => run.stepWork(role, prompt, tools),
          workflows: request.workflows,
        },
        request.workflow,
        input,
      ),
    );
  }

  /**
   * Starts a planned run (the recursive planner): the root task (role `plan`) asks a planner how the task
   * is best done and unfolds the plan as tasks below it.
   */
  async plan(request: PlanRequest): Promise<StartTaskResult> {
    const task = request.task.trim();
    if (task === '') throw new ConfigurationError('The task is empty: say what the agents should do.');
    const limits = {
      maxDepth: request.maxDepth ?? this.options.maxDepth ?? defaultLimits.maxDepth,
      maxSubtasks: request.maxSubtasks ?? defaultLimits.maxSubtasks,
    };
    return this.startRun(request, { parentId: null, role: 'plan', description: describePrompt(task), prompt: task }, (run) =>
      run.planWork(task, limits),
    );
  }

  /**
   * Continues a finished run with the user's next message: a new turn of its root agent, with the whole
   * conversation it had (its context, its subagents' results), as a task under the run's root. Throws a
   * `ConfigurationError` saying why for a run that is unknown, still running, not a conversation (a
   * workflow or a plan), or whose conversation is no longer kept.
   */
  async followUp(request: FollowUpRequest): Promise<StartTaskResult> {
    const message = request.message.trim();
    if (message === '') throw new ConfigurationError('The follow-up is empty: say what to do next.');
    const { root, role, earlier } = await followedRun(this.options, request.rootId);
    const conversation: ModelMessage[] = [...earlier, imageMessage(message, request.images ?? [])];
    const keep = { keepConversation: { key: root.id } };
    const awaitBackground = request.awaitBackgroundTasks ?? false;
    const task = {
      parentId: root.id,
      followUp: true,
      role: root.role,
      description: `Follow-up: ${describePrompt(message, 48)}`,
      prompt: withImageNames(message, request.images),
    };
    return this.startRun(request, task, (run) =>
      role ? run.roleWork(role, conversation, 0, awaitBackground, keep) : run.coordinatorWork(conversation, awaitBackground, keep),
    );
  }

  /**
   * Sends a finished subagent's work back with the user's comment: a new turn of the same agent, with its
   * whole conversation, whose edits go into the same change set (the proposal it made is revised in place,
   * so accepting it later applies one coherent change). It starts as a task under the one it revises.
   * Throws a `ConfigurationError` saying why for a task that is unknown, running, not a role's, or whose
   * conversation is not kept.
   */
  async requestChanges(request: RevisionRequest): Promise<StartTaskResult> {
    const comment = request.comment.trim();
    if (comment === '') throw new ConfigurationError('The request is empty: say what should change.');
    const { revised, role, earlier } = await revisedTask(this.options, request.taskId);
    const text = `The user reviewed your proposed changes and asks for changes:\n\n${comment}\n\nRevise your proposal accordingly; your edits change the same proposal.`;
    const conversation: ModelMessage[] = [...earlier, { role: 'user', content: [{ type: 'text', text }] }];
    const task = {
      parentId: revised.id,
      followUp: true,
      role: revised.role,
      description: `Revision: ${describePrompt(comment, 48)}`,
      prompt: comment,
    };
    return this.startRun(request, task, (run) =>
      run.roleWork(role, conversation, revised.depth + 1, false, { keepConversation: { key: revised.id }, changeSetOf: revised.id }),
    );
  }

  /**
   * Resumes a run whose tasks were interrupted (the editor closed, the process died): each goes on in
   * place from its last completed turn (resume-run.ts). Resolves once they are queued, with their
   * snapshots; wait on the root for the end. Throws a `ConfigurationError` saying why a run cannot be.
   */
  async resume(request: ResumeRequest): Promise<TaskSnapshot[]> {
    const tasks = interruptedTasks(this.options, request.runId);
    const modelFor = request.modelFor ?? this.options.modelFor;
    if (!modelFor) throw new ConfigurationError('No model is set up for this run: choose a provider and a model first.');
    const run = new TeamRun(this.options, this.inbox, (delegator) => this.rosters.for(delegator), modelFor);
    const workers = { coordinator: run.coordinatorWork.bind(run), role: run.roleWork.bind(run) };
    return resumeTasks(this.options, workers, request.source, tasks, request.awaitBackgroundTasks ?? false);
  }

  /**
   * What every entry point ends with: the run's models, fixed now for every agent it starts however much
   * later; its `TeamRun`; and its first task.
   */
  private startRun(request: RunBasics, task: RunTask, work: (run: TeamRun) => TaskWork): Promise<StartTaskResult> {
    const modelFor = request.modelFor ?? this.options.modelFor;
    if (!modelFor) throw new ConfigurationError('No model is set up for this run: choose a provider and a model first.');
    const run = new TeamRun(this.options, this.inbox, (delegator) => this.rosters.for(delegator), modelFor, request.a2aHops ?? 0);
    return this.options.taskManager.start({
      ...task,
      mode: request.mode ?? 'foreground',
      maxTokens: request.maxTokens,
      maxUsd: request.maxUsd,
      work: work(run),
    });
  }
}

/** The user's message with their images; too many is the user's mistake, said as such. */
function imageMessage(text: string, images: readonly ImagePart[]): ModelMessage {
  try {
    return userMessageWithImages(text, images);
  } catch (error) {
    throw new ConfigurationError(error instanceof Error ? error.message : String(error));
  }
}

/** The prompt as the task list, the history and the trace keep it: the images named, their bytes left out. */
function withImageNames(prompt: string, images: readonly ImagePart[] | undefined): string {
  return images?.length ? `${prompt}\n\n[Images attached: ${images.map(describeImage).join(', ')}]` : prompt;
}
