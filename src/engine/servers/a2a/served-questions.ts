/**
 * How a served run reaches its client: a question of one of its agents (a plan to approve with
 * `--approve-plan`, an `AskUser`) becomes the A2A task's `input-required` state, and the client's next
 * message on that task is the answer (team-agent-executor.ts). Questions are routed by the run's root; a
 * run nobody serves (another host's) gets no answer, so its agent is told no user is available.
 */
import { StoppedError, stopReasonOf } from '../../errors.js';
import { onAbort } from '../../abort.js';
import type { UserChannel, UserQuestion } from '../../conversation/user-channel.js';

interface OpenQuestion {
  question: UserQuestion;
  resolve(answer: string | undefined): void;
}

export class ServedQuestions implements UserChannel {
  private readonly listeners = new Map<string, (question: UserQuestion) => void>();
  private readonly open = new Map<string, OpenQuestion>();

  /** `rootOf`: the run (root task) a task belongs to. */
  constructor(private readonly rootOf: (taskId: string) => string | undefined) {}

  /** Hands the questions of run `rootId` to `listener` until the returned function is called. */
  serve(rootId: string, listener: (question: UserQuestion) => void): () => void {
    this.listeners.set(rootId, listener);
    return () => {
      if (this.listeners.get(rootId) === listener) this.listeners.delete(rootId);
      // A run no longer served leaves no question hanging.
      this.open.get(rootId)?.resolve(undefined);
    };
  }

  ask(question: UserQuestion, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.reject(new StoppedError(stopReasonOf(signal)));
    const rootId = this.rootOf(question.taskId);
    const listener = rootId === undefined ? undefined : this.listeners.get(rootId);
    if (rootId === undefined || !listener) return Promise.resolve(undefined);
    return new Promise<string | undefined>((resolve, reject) => {
      const removeAbort = onAbort(signal, () => {
        this.open.delete(rootId);
        reject(new StoppedError(stopReasonOf(signal)));
      });
      this.open.set(rootId, {
        question,
        resolve: (answer) => {
          removeAbort();
          this.open.delete(rootId);
          resolve(answer);
        },
      });
      listener(question);
    });
  }

  /** The question run `rootId` waits on, if any. */
  waiting(rootId: string): UserQuestion | undefined {
    return this.open.get(rootId)?.question;
  }

  /** Answers the question run `rootId` waits on; false when it waits on none. */
  answer(rootId: string, answer: string): boolean {
    const open = this.open.get(rootId);
    if (!open) return false;
    open.resolve(answer);
    return true;
  }
}
