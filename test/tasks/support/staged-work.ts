/**
 * Work whose every step the test controls: it records its context, then waits until the test releases it.
 * `onAbort` decides what it does when stopped: return a partial result (like a well-behaved agent run),
 * or hang forever (like a provider call that ignores its signal).
 */
import { createDeferred } from '../../../src/engine/util/deferred.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../../../src/engine/tasks/work.js';

export interface StagedWorkOptions {
  /** `hang`: never settles after abort unless released. `return`: resolves with `abortOutput` as failed. Default `hang`. */
  onAbort?: 'hang' | 'return';
  abortOutput?: string;
}

export class StagedWork {
  private readonly contextReady = createDeferred<TaskWorkContext>();
  private readonly result = createDeferred<TaskWorkResult>();
  /** Times the work function was called. */
  calls = 0;
  context: TaskWorkContext | undefined;

  constructor(private readonly options: StagedWorkOptions = {}) {}

  readonly work: TaskWork = (context) => {
    this.calls++;
    this.context = context;
    this.contextReady.resolve(context);
    if (this.options.onAbort === 'return') {
      context.signal.addEventListener('abort', () => {
        this.result.resolve({ status: 'failed', output: this.options.abortOutput ?? '', error: 'aborted' });
      });
    }
    return this.result.promise;
  };

  /** Resolves once the manager has called the work. */
  get started(): Promise<TaskWorkContext> {
    return this.contextReady.promise;
  }

  complete(output: string): void {
    this.result.resolve({ status: 'completed', output });
  }

  fail(error: string, output = ''): void {
    this.result.resolve({ status: 'failed', output, error });
  }

  throw(error: unknown): void {
    this.result.reject(error);
  }

  /** Resolves with anything at all, to test how the manager treats bad results. */
  resolveWith(value: unknown): void {
    this.result.resolve(value as TaskWorkResult);
  }
}
