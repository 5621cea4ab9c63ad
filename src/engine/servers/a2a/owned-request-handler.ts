/**
 * The SDK's request handler with the server-side rules of a server that belongs to its clients: every
 * method on an existing task checks it is the caller's (TaskOwners; the SDK's task store also keeps each
 * client's tasks apart, this says so before the store is even asked); a message to a task that is still
 * working is refused with the protocol's error instead of starting a second run on it; and a new task is
 * refused when `maxActiveRuns` runs are already at work. The same rules hold whichever protocol version
 * the call came in: the SDK's 0.3 layer translates to these 1.0 methods.
 */
import { maxActiveRuns as maxActiveRunsDefault } from '../served-team.js';
import type { SendMessageRequest } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { clientOf, type TaskOwners } from './task-owners.js';

/** What the handler needs of the executor: whether a task's run is going, and how many are. */
export interface RunsInProgress {
  isWorking(taskId: string): boolean;
  activeRuns(): number;
}

type Handler = A2ARequestHandler;
type Arguments<Method extends keyof Handler> = Parameters<Handler[Method]>;

export class OwnedRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly inner: A2ARequestHandler,
    private readonly owners: TaskOwners,
    private readonly runs: RunsInProgress,
    private readonly maxActiveRuns = maxActiveRunsDefault,
  ) {}

  getAgentCard() {
    return this.inner.getAgentCard();
  }

  getAuthenticatedExtendedAgentCard(...[params, context]: Arguments<'getAuthenticatedExtendedAgentCard'>) {
    return this.inner.getAuthenticatedExtendedAgentCard(params, context);
  }

  sendMessage(...[params, context]: Arguments<'sendMessage'>) {
    this.admit(params, context);
    return this.inner.sendMessage(params, context);
  }

  sendMessageStream(...[params, context]: Arguments<'sendMessageStream'>) {
    this.admit(params, context);
    return this.inner.sendMessageStream(params, context);
  }

  getTask(...[params, context]: Arguments<'getTask'>) {
    this.owners.check(params.id, clientOf(context));
    return this.inner.getTask(params, context);
  }

  listTasks(...[params, context]: Arguments<'listTasks'>) {
    // The store lists only the caller's own tasks.
    return this.inner.listTasks(params, context);
  }

  cancelTask(...[params, context]: Arguments<'cancelTask'>) {
    this.owners.check(params.id, clientOf(context));
    return this.inner.cancelTask(params, context);
  }

  resubscribe(...[params, context]: Arguments<'resubscribe'>) {
    this.owners.check(params.id, clientOf(context));
    return this.inner.resubscribe(params, context);
  }

  createTaskPushNotificationConfig(...[params, context]: Arguments<'createTaskPushNotificationConfig'>) {
    this.owners.check(params.taskId, clientOf(context));
    return this.inner.createTaskPushNotificationConfig(params, context);
  }

  getTaskPushNotificationConfig(...[params, context]: Arguments<'getTaskPushNotificationConfig'>) {
    this.owners.check(params.taskId, clientOf(context));
    return this.inner.getTaskPushNotificationConfig(params, context);
  }

  listTaskPushNotificationConfigs(...[params, context]: Arguments<'listTaskPushNotificationConfigs'>) {
    this.owners.check(params.taskId, clientOf(context));
    return this.inner.listTaskPushNotificationConfigs(params, context);
  }

  deleteTaskPushNotificationConfig(...[params, context]: Arguments<'deleteTaskPushNotificationConfig'>) {
    this.owners.check(params.taskId, clientOf(context));
    return this.inner.deleteTaskPushNotificationConfig(params, context);
  }

  /** A message continues one of the caller's own tasks that is not working, or starts one within the cap. */
  private admit(params: SendMessageRequest, context: ServerCallContext): void {
    const message = params.message;
    // Tasks a message refers to are loaded for the run: they must be the caller's too.
    for (const referenced of message?.referenceTaskIds ?? []) this.owners.check(referenced, clientOf(context));
    const taskId = message?.taskId || undefined;
    if (taskId !== undefined) {
      this.owners.check(taskId, clientOf(context));
      if (this.runs.isWorking(taskId))
        throw new RequestMalformedError(
          `Task ${taskId} is still working: wait for it to end (tasks/get) or cancel it (tasks/cancel) before sending it another message.`,
        );
      return;
    }
    if (this.runs.activeRuns() >= this.maxActiveRuns)
      throw new RequestMalformedError(
        `This agent is already at work on ${this.runs.activeRuns()} tasks, the most it takes at once (${this.maxActiveRuns}): wait for one to end, or cancel one, then send again.`,
      );
  }
}
