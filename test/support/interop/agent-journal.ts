/**
 * What an interoperability test agent records — the prompts it was sent, the tasks it was asked to
 * cancel — and the gate its turns wait at after their first words, so that a test can Stop a task while
 * the agent is mid-answer, or let it answer, without sleeping.
 */
import { createDeferred } from '../../../src/engine/util/deferred.js';

interface Waiter {
  reached: () => boolean;
  resolve: () => void;
}

export class AgentJournal {
  /** The text of each message the agent received, in order. */
  readonly prompts: string[] = [];
  /** The ids of the tasks a client asked the agent to cancel (whether or not the agent could). */
  readonly cancelledTasks: string[] = [];
  private startedTurns = 0;
  private readonly gate = createDeferred();
  private readonly waiters: Waiter[] = [];

  /** Resolves when the gate opens: every turn waiting there (and every later one) goes on to its answer. */
  get released(): Promise<void> {
    return this.gate.promise;
  }

  /** Lets the agent's turns finish their answers. */
  release(): void {
    this.gate.resolve();
  }

  /** Resolves once `count` turns have streamed their first words and wait at the gate. */
  started(count = 1): Promise<void> {
    return this.waitFor(() => this.startedTurns >= count);
  }

  /** Resolves once `count` cancellations were asked for. */
  cancelled(count = 1): Promise<void> {
    return this.waitFor(() => this.cancelledTasks.length >= count);
  }

  recordPrompt(prompt: string): void {
    this.prompts.push(prompt);
    this.wake();
  }

  recordStarted(): void {
    this.startedTurns += 1;
    this.wake();
  }

  recordCancel(taskId: string): void {
    this.cancelledTasks.push(taskId);
    this.wake();
  }

  private waitFor(reached: () => boolean): Promise<void> {
    if (reached()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ reached, resolve }));
  }

  private wake(): void {
    for (const waiter of this.waiters.filter((candidate) => candidate.reached())) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
