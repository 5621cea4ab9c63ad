/**
 * The team as an A2A agent: each message starts a run (the coordinator, or the role its `metadata.skill`
 * names), the run's progress goes out as `working` status messages, its text streams as chunks of the
 * artifact `answer`, and the run's end is the task's final status. `tasks/cancel` stops the run. The SDK's
 * `DefaultRequestHandler` does the protocol around it (and its 0.3 layer translates for older clients).
 *
 * Progress and answer are kept apart as the spec intends: the answer only in the artifact, ending with the
 * whole text as its last chunk (which carries the tree's usage); progress only in status messages, whose
 * parts are marked as thinking (`adk_thought`), since Google ADK shows unmarked status text as answer text.
 * The final status carries no text when the run completed, or ADK would show the answer twice.
 */
import { randomUUID } from 'node:crypto';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentEvent } from '@a2a-js/sdk/server';
import { errorMessage } from '../../errors.js';
import type { TaskEvent, TaskSnapshot } from '../../tasks/types.js';
import { treeSettled } from '../../tasks/tree-settled.js';
import type { AgentTeam } from '../../team/agent-team.js';
import { coordinatorName } from '../../roles/coordinator.js';
import { artifactUpdate, dataPart, message, statusUpdate, task, type TaskStateName, textOf, textPart, thoughtMetadata } from '../../a2a/a2a-objects.js';
import type { Usage } from '../../model/types.js';
import { clientOf, type TaskOwners } from './task-owners.js';
import { hopRefusal, hopsOf } from '../../a2a/hop-count.js';

export interface TeamAgentOptions {
  team: AgentTeam;
  /** Who each task belongs to: claimed by its creator as its run starts. Default: no record kept. */
  owners?: TaskOwners;
  /** The answer for a run that has ended (the CLI adds the diffs it proposed). Default: the run's output. */
  describeResult?(root: TaskSnapshot): string;
  /** The run's answer as data (a role's JSON, structured-answer.ts), sent as a data part beside the text. Default: none. */
  structuredResult?(root: TaskSnapshot): { value: unknown } | undefined;
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
    const say = new TaskVoice(bus, request.taskId, request.contextId);
    if (!request.task) bus.publish(AgentEvent.task(task(request.taskId, request.contextId, 'submitted', [request.userMessage])));
    const hops = hopsOf(request.userMessage.metadata);
    const refusal = hopRefusal(hops);
    if (refusal !== undefined) {
      // Refused before any run starts: a loop of servers ends here instead of holding a run on every lap.
      say.status('rejected', refusal);
      bus.finished();
      return;
    }
    this.runs.set(request.taskId, undefined);
    try {
      const root = await this.run(request, say, hops + 1);
      say.answer(this.options.describeResult?.(root) ?? root.output ?? '', true, root.treeUsage, this.options.structuredResult?.(root));
      say.status(stateOf(root), finalWordsOf(root));
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
    bus.publish(AgentEvent.statusUpdate(statusUpdate(taskId, '', 'canceled')));
    bus.finished();
  }

  /** Starts the run, forwards its progress until its whole tree has ended, and returns its root. */
  /** `hops`: the agent-team servers the request has passed through, this one included. */
  private async run(request: RequestContext, say: TaskVoice, hops: number): Promise<TaskSnapshot> {
    const { team } = this.options;
    const prompt = textOf(request.userMessage.parts);
    const skill = request.userMessage.metadata?.skill;
    const role = typeof skill === 'string' && skill !== coordinatorName ? skill : undefined;
    const started = await team.delegate({ prompt, role, mode: 'background', awaitBackgroundTasks: true, a2aHops: hops });
    const rootId = started.task.id;
    this.runs.set(request.taskId, rootId);
    if (this.cancelled.has(request.taskId)) await team.taskManager.stop(rootId, { kind: 'user' });
    say.progress(`${started.task.role} started: ${started.task.description}`);
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
    if (entry.type === 'tool-call') say.progress(`calling ${entry.toolName}`);
    else if (entry.type === 'notice') say.progress(entry.text);
  } else if (event.type === 'task-start' && event.task.rootId === rootId && event.task.id !== rootId) {
    say.progress(`${event.task.role} started: ${event.task.description}`);
  } else if (event.type === 'task-end' && event.task.rootId === rootId && event.task.id !== rootId) {
    say.progress(`${event.task.role} ${event.task.status}: ${event.task.description}`);
  }
}

/**
 * The A2A state a run ended in. A2A has no `interrupted`: a run cut short by the server shutting down is
 * `canceled` like a stopped one (its client cannot resume it here), and says why in its message.
 */
function stateOf(root: TaskSnapshot): TaskStateName {
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

/**
 * The tree's usage where A2A clients read it: ours as `usage`, Google ADK's as `adk_usage_metadata` (in the
 * shape of Gemini's usage metadata). Sent once, with the answer's last chunk, so no client counts it twice.
 */
function usageMetadata(usage: Usage): Record<string, unknown> {
  return {
    usage,
    adk_usage_metadata: { promptTokenCount: usage.inputTokens, candidatesTokenCount: usage.outputTokens, totalTokenCount: usage.inputTokens + usage.outputTokens },
  };
}

/** Publishes one A2A task's events on its bus. */
class TaskVoice {
  private answerStarted = false;

  constructor(
    private readonly bus: ExecutionEventBus,
    private readonly taskId: string,
    private readonly contextId: string,
  ) {}

  /** A line of progress: a `working` status whose text is marked as the agent's thinking, not its answer. */
  progress(text: string): void {
    this.status('working', text, true);
  }

  status(state: TaskStateName, text?: string, thought = false): void {
    const said = text === undefined ? undefined : message({ role: 'agent', messageId: randomUUID(), parts: [textPart(text, thought ? { ...thoughtMetadata } : undefined)], taskId: this.taskId, contextId: this.contextId });
    this.bus.publish(AgentEvent.statusUpdate(statusUpdate(this.taskId, this.contextId, state, said)));
  }

  /** A chunk of the answer as it streams; `whole`: the final answer, which replaces what was streamed. */
  answer(text: string, whole: boolean, usage?: Usage, structured?: { value: unknown }): void {
    const append = !whole && this.answerStarted;
    this.answerStarted = true;
    const metadata = usage ? usageMetadata(usage) : undefined;
    this.bus.publish(AgentEvent.artifactUpdate(artifactUpdate(this.taskId, this.contextId, { artifactId: answerArtifactId, name: 'answer', parts: structured ? [textPart(text), dataPart(structured.value)] : [textPart(text)], append, lastChunk: whole, metadata })));
  }
}
