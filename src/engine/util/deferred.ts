/**
 * A promise with its resolve and reject exposed (Node 20 has no `Promise.withResolvers`): for the engine's
 * waits, and for tests, which release such promises instead of sleeping.
 */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  /** True once `resolve` or `reject` was called; later calls are ignored. */
  readonly settled: boolean;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function createDeferred<T = void>(): Deferred<T> {
  return new SettleOnce<T>();
}

/**
 * A class rather than an object of closures: the task manager makes a few for every task (its end, its
 * caller), and methods on the prototype cost no allocation each (B1 in docs/performance.md).
 */
class SettleOnce<T> implements Deferred<T> {
  readonly promise: Promise<T>;
  private done = false;
  private resolvePromise!: (value: T) => void;
  private rejectPromise!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolvePromise = resolve;
      this.rejectPromise = reject;
    });
  }

  get settled(): boolean {
    return this.done;
  }

  resolve(value: T): void {
    if (this.done) return;
    this.done = true;
    this.resolvePromise(value);
  }

  reject(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.rejectPromise(error);
  }
}
