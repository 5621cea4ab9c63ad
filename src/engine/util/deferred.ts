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
  let resolvePromise!: (value: T) => void;
  let rejectPromise!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    resolvePromise = resolve;
    rejectPromise = reject;
  });
  let settled = false;
  return {
    promise,
    get settled() {
      return settled;
    },
    resolve(value) {
      if (settled) return;
      settled = true;
      resolvePromise(value);
    },
    reject(error) {
      if (settled) return;
      settled = true;
      rejectPromise(error);
    },
  };
}
