/**
 * The CLI's way to the user: a question (or a chat agent's message) is printed to stderr and answered by
 * one line on stdin. With no stdin left (closed, or never given), every question gets "no user is
 * available" and the agent decides for itself. Questions from parallel agents are asked one at a time.
 * Stdin is only touched once a question comes, so runs that ask nothing never hold it open.
 */
import { type Interface, createInterface } from 'node:readline';
import { onAbort, StoppedError, stopReasonOf, type UserChannel, type UserQuestion } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

/** How each kind of question is put on the terminal. */
const wording: Record<UserQuestion['kind'], { verb: string; prompt: string }> = {
  question: { verb: 'asks', prompt: 'Your answer: ' },
  chat: { verb: 'says', prompt: 'Your reply (an empty line ends the chat): ' },
  plan: { verb: 'asks you to approve its plan', prompt: 'Your answer (approve, stop, or the changes you want): ' },
};

export class StdinUserChannel implements UserChannel {
  private reader: Interface | undefined;
  private closed = false;
  private readonly buffered: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly input: NodeJS.ReadableStream & { pause?: () => unknown },
    private readonly output: { write(text: string): void },
    /** `t3 researcher: Find the parser`, for the header of each question. */
    private readonly describeTask: (taskId: string) => string,
  ) {}

  ask(question: UserQuestion, signal: AbortSignal): Promise<string | undefined> {
    const answer = this.turn.then(() => this.askNow(question, signal));
    this.turn = answer.catch(() => undefined);
    return answer;
  }

  /** Lets go of stdin, so the process can exit. */
  dispose(): void {
    this.reader?.close();
    this.input.pause?.();
  }

  private async askNow(question: UserQuestion, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) throw new StoppedError(stopReasonOf(signal));
    if (this.closed && this.buffered.length === 0) return undefined;
    const who = this.describeTask(question.taskId);
    const { verb, prompt } = wording[question.kind];
    this.output.write(`\n[${terminalSafe(who)}] ${verb}:\n${terminalSafe(question.text)}\n${prompt}`);
    const line = await this.nextLine(signal);
    if (line === undefined)
      this.output.write(
        question.kind === 'plan'
          ? '(no input left: nobody can approve the plan)\n'
          : '(no input left: the agent goes on without an answer)\n',
      );
    if (question.kind === 'chat' && line?.trim() === '') return undefined;
    return line;
  }

  private nextLine(signal: AbortSignal): Promise<string | undefined> {
    this.reader ??= this.openReader();
    const next = this.buffered.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise<string | undefined>((resolve, reject) => {
      const removeAbort = onAbort(signal, () => {
        this.waiting = undefined;
        reject(new StoppedError(stopReasonOf(signal)));
      });
      this.waiting = (line) => {
        removeAbort();
        this.waiting = undefined;
        resolve(line);
      };
    });
  }

  private openReader(): Interface {
    const reader = createInterface({ input: this.input, terminal: false });
    reader.on('line', (line) => {
      if (this.waiting) this.waiting(line);
      else this.buffered.push(line);
    });
    reader.on('close', () => {
      this.closed = true;
      this.waiting?.(undefined);
    });
    return reader;
  }
}
