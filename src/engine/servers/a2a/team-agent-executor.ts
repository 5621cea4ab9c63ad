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
 *
 * A question of the run (its plan, with `--approve-plan`; an `AskUser`) is the task's `input-required`
 * state: `execute` returns with the run still going, and the client's next message on the task is the
 * answer; the run goes on on that message's stream (served-questions.ts).
 */
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentEvent } from '@a2a-js/sdk/server';
import { errorMessage } from '../../errors.js';
import type { TaskSnapshot } from '../../tasks/types.js';
import { treeSettled } from '../../tasks/tree-settled.js';
import type { AgentTeam } from '../../team/agent-team.js';
import { coordinatorName } from '../../roles/coordinator.js';
import { statusUpdate, task, textOf } from '../../a2a/a2a-objects.js';
import type { UserQuestion } from '../../conversation/user-channel.js';
import { type Deferred, createDeferred } from '../../util/deferred.js';
import type { ServedQuestions } from './served-questions.js';
import { TaskVoice } from './task-voice.js';
import { finalWordsOf, forward, stateOf } from './run-to-a2a.js';
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
  /** Where the runs' questions come to (the engine's user channel): each becomes `input-required`. Default: none (agents are told no user is available). */
  questions?: ServedQuestions;
}

export { answerArtifactId } from './task-voice.js';

/** One A2A task's run: its root once started, and the voice of the message being served (each message brings its bus). */
interface Session {
  contextId: string;
  rootId?: string;
  voice: TaskVoice;
  /** The run's end: its root once the whole tree has ended. */
  ended?: Promise<TaskSnapshot>;
  /** Resolves with the next question the run puts to the client. */
  question: Deferred<UserQuestion>;
}

export class TeamAgentExecutor implements AgentExecutor {
  /** The run of each A2A task still going, so a cancellation knows what to stop and an answer where to go. */
  private readonly sessions = new Map<string, Session>();
  /** Tasks cancelled before their run had started: it is stopped the moment it has. */
  private readonly cancelled = new Set<string>();

  constructor(private readonly options: TeamAgentOptions) {}

  /** True while the task's run is going and not waiting for the client (a second message to it is refused). */
  isWorking(taskId: string): boolean {
    const session = this.sessions.get(taskId);
    return session !== undefined && !this.waitsForClient(session);
  }

  activeRuns(): number {
    return this.sessions.size;
  }

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const say = new TaskVoice(bus, request.taskId, request.contextId);
    const going = this.sessions.get(request.taskId);
    if (going?.rootId !== undefined && this.waitsForClient(going)) {
      // The client's answer to the question the run waits on (input-required); the run goes on on this message's bus.
      going.voice = say;
      // A stream starts with the task: its history and artifacts so far are the store's (an empty list keeps them).
      bus.publish(AgentEvent.task(task(request.taskId, request.contextId, 'working')));
      this.options.questions?.answer(going.rootId, textOf(request.userMessage.parts));
      return this.follow(request.taskId, going, bus);
    }
    this.options.owners?.claim(request.taskId, clientOf(request.context));
    if (!request.task) bus.publish(AgentEvent.task(task(request.taskId, request.contextId, 'submitted', [request.userMessage])));
    const hops = hopsOf(request.userMessage.metadata);
    const refusal = hopRefusal(hops);
    if (refusal !== undefined) {
      // Refused before any run starts: a loop of servers ends here instead of holding a run on every lap.
      say.status('rejected', refusal);
      bus.finished();
      return;
    }
    const session: Session = { contextId: request.contextId, voice: say, question: createDeferred<UserQuestion>() };
    this.sessions.set(request.taskId, session);
    try {
      await this.start(request, session, hops + 1);
    } catch (error) {
      // A run that cannot start (an unknown role, an empty task) is the task's failure, said in words.
      say.status('failed', errorMessage(error));
      this.end(request.taskId, bus);
      return;
    }
    return this.follow(request.taskId, session, bus);
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const session = this.sessions.get(taskId);
    if (session) {
      // A run still starting is stopped the moment it has started; `follow` then says it ended.
      if (session.rootId === undefined) {
        this.cancelled.add(taskId);
        return;
      }
      const waiting = this.waitsForClient(session);
      await this.options.team.taskManager.stop(session.rootId, { kind: 'user' });
      // Otherwise `follow` sees the run end and publishes the final `canceled` status. A run that waited
      // for the client has no message being served: its end is said on this bus.
      if (waiting) {
        session.voice = new TaskVoice(bus, taskId, session.contextId);
        await this.follow(taskId, session, bus);
      }
      return;
    }
    bus.publish(AgentEvent.statusUpdate(statusUpdate(taskId, '', 'canceled')));
    bus.finished();
  }

  /** Starts the run and forwards its progress, its questions included, to the session's current voice. */
  /** `hops`: the agent-team servers the request has passed through, this one included. */
  private async start(request: RequestContext, session: Session, hops: number): Promise<void> {
    const { team } = this.options;
    const prompt = textOf(request.userMessage.parts);
    const skill = request.userMessage.metadata?.skill;
    const role = typeof skill === 'string' && skill !== coordinatorName ? skill : undefined;
    const started = await team.delegate({ prompt, role, mode: 'background', awaitBackgroundTasks: true, a2aHops: hops });
    const rootId = started.task.id;
    session.rootId = rootId;
    if (this.cancelled.has(request.taskId)) await team.taskManager.stop(rootId, { kind: 'user' });
    session.voice.progress(`${started.task.role} started: ${started.task.description}`);
    const stopForwarding = team.taskManager.onEvent((event) => forward(event, rootId, session.voice));
    const stopQuestions = this.options.questions?.serve(rootId, (question) => session.question.resolve(question));
    session.ended = treeSettled(team.taskManager, rootId).finally(() => {
      stopForwarding();
      stopQuestions?.();
    });
  }

  /** Serves the run until it ends (the final status) or asks the client something (`input-required`, the run going on). */
  private async follow(taskId: string, session: Session, bus: ExecutionEventBus): Promise<void> {
    const ended = session.ended as Promise<TaskSnapshot>;
    const next = await Promise.race([ended.then((root) => ({ root })), session.question.promise.then((question) => ({ question }))]);
    if ('question' in next) {
      session.question = createDeferred<UserQuestion>();
      session.voice.status('input-required', next.question.text);
      return;
    }
    const root = next.root;
    session.voice.answer(
      this.options.describeResult?.(root) ?? root.output ?? '',
      true,
      root.treeUsage,
      this.options.structuredResult?.(root),
    );
    session.voice.status(stateOf(root), finalWordsOf(root));
    this.end(taskId, bus);
  }

  private end(taskId: string, bus: ExecutionEventBus): void {
    this.sessions.delete(taskId);
    this.cancelled.delete(taskId);
    bus.finished();
  }

  private waitsForClient(session: Session): boolean {
    return session.rootId !== undefined && this.options.questions?.waiting(session.rootId) !== undefined;
  }
}
