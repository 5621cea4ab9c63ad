/**
 * Which client each A2A task belongs to. A client is who presented a token (`--auth-token-env`: each
 * token one client), or, without tokens, the one local caller. Another client's task is answered as if it
 * did not exist: its id is not even confirmed.
 */
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, User } from '@a2a-js/sdk/server';

/** The caller when the server takes no tokens (it listens on loopback only then). */
export const localClient = 'local';

/** A client as the SDK's handlers see it (`ServerCallContext.user`). */
export class A2aClient implements User {
  constructor(readonly userName: string) {}

  get isAuthenticated(): boolean {
    return this.userName !== localClient;
  }
}

export function clientOf(context: ServerCallContext | undefined): string {
  return context?.user?.userName ?? localClient;
}

export class TaskOwners {
  private readonly owners = new Map<string, string>();

  /** Records the client that created the task (the first to claim it). */
  claim(taskId: string, client: string): void {
    if (!this.owners.has(taskId)) this.owners.set(taskId, client);
  }

  /** Throws the protocol's "task not found" unless the task is this client's (or unknown: the SDK says so). */
  check(taskId: string, client: string): void {
    const owner = this.owners.get(taskId);
    if (owner !== undefined && owner !== client) throw new TaskNotFoundError(`Task not found: ${taskId}`);
  }
}
