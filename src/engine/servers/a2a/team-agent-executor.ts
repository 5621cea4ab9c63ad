/**
 * The team as an A2A agent: each message starts a run (the coordinator, or the role its `metadata.skill`
 * names), the run's progress goes out as `working` status messages, its text streams as chunks of the
 * artifact `answer`, and the run's end is the task's final status, with the whole tree's usage in its
 * metadata. `tasks/cancel` stops the run. The SDK's `DefaultRequestHandler` does the protocol around it.
 */
import { randomUUID } from 'node:crypto';
import type { Message, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { errorMessage } from '../../errors.js';
import type { TaskEvent, TaskSnapshot } from '../../tasks/types.js';
import { treeSettled } from '../../tasks/tree-settled.js';
import type { AgentTeam } from '../../team/agent-team.js';
import { coordinatorName } from '../../roles/coordinator.js';
import { textOf } from '../../a2a/remote-progress.js';
import { clientOf, type TaskOwners } from './task-owners.js';

export interface TeamAgentOptions {
  team: AgentTeam;
  /** Who each task belongs to: claimed by its creator as its run starts. Default: no record kept. */
  owners?: TaskOwners;
  /** The answer for a run that has ended (the CLI adds the diffs it proposed). Default: the run's output. */
  describeResult?(root: TaskSnapshot): string;
}

/** The artifact that carries the answer, streamed and then replaced whole by the final text. */
export const answerArtifactId = 'answer';

export class TeamAgentExecutor implements AgentExecutor {
  /** The run of each A2A task still going (undefined while it starts), so a cancellation knows what to stop. */
  private readonly runs = new Map<string, string | undefined>();
  /** Tasks cancelled before their run had started: it is stopped the moment it has. */
  private readonly cancelled = new Set<string>();

  constructor(private readonly options: TeamAgentOptions) {}

  /** True while the task's run is going (a second message to it is refused). */
  isWorking(taskId: string): boolean {
    return this.runs.has(taskId);
  }

  activeRuns(): number {
    return this.runs.size;
  }

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    this.options.owners?.claim(request.taskId, clientOf(request.context));
    this.runs.set(request.taskId, undefined);
    const say = new TaskVoice(bus, request.taskId, request.contextId);
    if (!request.task) bus.publish({ kind: 'task', id: request.taskId, contextId: request.contextId, status: { state: 'submitted', timestamp: new Date().toISOString() }, history: [request.userMessage] });
    try {
      const root = await this.run(request, say);
      say.answer(this.options.describeResult?.(root) ?? root.output ?? '', true);
      say.status(stateOf(root), finalWordsOf(root), { usage: root.treeUsage });
    } catch (error) {
      // A run that cannot start (an unknown role, an empty task) is the task's failure, said in words.
      say.status('failed', errorMessage(error));
    } finally {
      this.runs.delete(request.taskId);
      this.cancelled.delete(request.taskId);
      bus.finished();
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    if (this.runs.has(taskId)) {
      const rootId = this.runs.get(taskId);
      // `execute` sees the run end and publishes the final `canceled` status; a run still starting is
      // stopped the moment it has started.
      if (rootId === undefined) this.cancelled.add(taskId);
      else await this.options.team.taskManager.stop(rootId, { kind: 'user' });
      return;
    }
    bus.publish({ kind: 'status-update', taskId, contextId: '', status: { state: 'canceled', timestamp: new Date().toISOString() }, final: true });
    bus.finished();
  }

  /** Starts the run, forwards its progress until its whole tree has ended, and returns its root. */
  private async run(request: RequestContext, say: TaskVoice): Promise<TaskSnapshot> {
    const { team } = this.options;
    const prompt = textOf(request.userMessage.parts);
    const skill = request.userMessage.metadata?.skill;
    const role = typeof skill === 'string' && skill !== coordinatorName ? skill : undefined;
    const started = await team.delegate({ prompt, role, mode: 'background', awaitBackgroundTasks: true });
    const rootId = started.task.id;
    this.runs.set(request.taskId, rootId);
    if (this.cancelled.has(request.taskId)) await team.taskManager.stop(rootId, { kind: 'user' });
    say.status('working', `${started.task.role} started: ${started.task.description}`);
    const stop = team.taskManager.onEvent((event) => forward(event, rootId, say));
    try {
      return await treeSettled(team.taskManager, rootId);
    } finally {
      stop();
    }
  }
}

/** What of the run an A2A client sees: the root's streamed text and steps, and its subagents coming and going. */
function forward(event: TaskEvent, rootId: string, say: TaskVoice): void {
  if (event.type === 'task-text-delta' && event.taskId === rootId) say.answer(event.text, false);
  else if (event.type === 'task-transcript' && event.taskId === rootId) {
    const entry = event.entry;
    if (entry.type === 'tool-call') say.status('working', `calling ${entry.toolName}`);
    else if (entry.type === 'notice') say.status('working', entry.text);
  } else if (event.type === 'task-start' && event.task.rootId === rootId && event.task.id !== rootId) {
    say.status('working', `${event.task.role} started: ${event.task.description}`);
  } else if (event.type === 'task-end' && event.task.rootId === rootId && event.task.id !== rootId) {
    say.status('working', `${event.task.role} ${event.task.status}: ${event.task.description}`);
  }
}


/**
 * The A2A state a run ended in. A2A has no `interrupted`: a run cut short by the server shutting down is
 * `canceled` like a stopped one (its client cannot resume it here), and says why in its message.
 */
function stateOf(root: TaskSnapshot): TaskState {
  switch (root.status) {
    case 'completed':
      return 'completed';
    case 'stopped':
    case 'interrupted':
      return 'canceled';
    default:
      return 'failed';
  }
}

/** The words with the final state: why a run failed or was interrupted; nothing for the others. */
function finalWordsOf(root: TaskSnapshot): string | undefined {
  if (root.status === 'failed') return root.error ?? 'the run failed';
  if (root.status === 'interrupted') return 'the run was interrupted: Agent Team shut down before it finished';
  return undefined;
}

/** Publishes one A2A task's events on its bus. */
class TaskVoice {
  private answerStarted = false;

  constructor(
    private readonly bus: ExecutionEventBus,
    private readonly taskId: string,
    private readonly contextId: string,
  ) {}

  status(state: TaskState, text?: string, metadata?: Record<string, unknown>): void {
    const final = state !== 'working' && state !== 'submitted';
    const message: Message | undefined =
      text === undefined ? undefined : { kind: 'message', role: 'agent', messageId: randomUUID(), parts: [{ kind: 'text', text }], taskId: this.taskId, contextId: this.contextId };
    this.bus.publish({
      kind: 'status-update',
      taskId: this.taskId,
      contextId: this.contextId,
      status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
      final,
      ...(metadata ? { metadata } : {}),
    });
  }

  /** A chunk of the answer as it streams; `whole`: the final answer, which replaces what was streamed. */
  answer(text: string, whole: boolean): void {
    const append = !whole && this.answerStarted;
    this.answerStarted = true;
    this.bus.publish({
      kind: 'artifact-update',
      taskId: this.taskId,
      contextId: this.contextId,
      append,
      lastChunk: whole,
      artifact: { artifactId: answerArtifactId, name: 'answer', parts: [{ kind: 'text', text }] },
    });
  }
}
