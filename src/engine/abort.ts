/**
 * AbortSignal helpers with cleanup. Each one removes the listeners it added once they are no longer needed:
 * long-lived signals (a task's, the extension's) must not collect one listener per turn, tool call or wait.
 */
import { StoppedError, stopReasonOf } from './errors.js';

/**
 * Calls `callback` once when `signal` aborts, with its reason (at once, synchronously, if it already has).
 * Returns a function that removes the listener; calling it after the abort is harmless.
 */
export function onAbort(signal: AbortSignal, callback: (reason: unknown) => void): () => void {
  if (signal.aborted) {
    callback(signal.reason);
    return () => {};
  }
  const listener = () => callback(signal.reason);
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/**
 * Aborts `child` when `parent` aborts, with the parent's reason (or `mapReason(parentReason)`, e.g. to turn
 * a user stop into `parent-stopped`). Returns `unlink`, which detaches the child from the parent; the link
 * also detaches itself once either side aborts, so nothing lingers on the parent.
 */
export function linkSignals(
  parent: AbortSignal,
  child: AbortController,
  mapReason: (parentReason: unknown) => unknown = (reason) => reason,
): () => void {
  if (child.signal.aborted) return () => {};
  if (parent.aborted) {
    child.abort(mapReason(parent.reason));
    return () => {};
  }
  const forward = () => {
    child.signal.removeEventListener('abort', unlink);
    child.abort(mapReason(parent.reason));
  };
  const unlink = () => {
    parent.removeEventListener('abort', forward);
    child.signal.removeEventListener('abort', unlink);
  };
  parent.addEventListener('abort', forward, { once: true });
  child.signal.addEventListener('abort', unlink, { once: true });
  return unlink;
}

/** A child of a parent signal: aborts with the parent's own reason, and can also be aborted on its own. */
export interface LinkedAbort {
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  /** Detaches from the parent. Call it when the child's work is over. */
  dispose(): void;
}

/**
 * A child signal of `parent` (a turn's or a tool call's, under a run's). Forwarding the parent's reason
 * keeps the typed `StopReason` visible to the model adapter and the tools.
 */
export function linkAbort(parent: AbortSignal): LinkedAbort {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, abort: () => {}, dispose: () => {} };
  }
  // One listener, on the parent: the child is aborted only here and by `abort`, which unlinks first, so it
  // needs no listener of its own to unlink itself (linkSignals' second one; a turn and a tool call each
  // make a link, B2 in docs/performance.md). A `once` listener is gone from the parent once it fired.
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  const dispose = () => parent.removeEventListener('abort', forward);
  return {
    signal: controller.signal,
    abort: (reason) => {
      dispose();
      controller.abort(reason);
    },
    dispose,
  };
}

/** A signal that aborts when any of `signals` does, with the first one's reason. */
export interface CombinedSignal {
  readonly signal: AbortSignal;
  /** Removes every listener from the source signals. Call it when the combined signal's work is over. */
  dispose(): void;
}

/**
 * Combines signals with cleanup (`AbortSignal.any` offers no way to detach from long-lived sources).
 */
export function combineSignals(signals: readonly AbortSignal[]): CombinedSignal {
  const controller = new AbortController();
  const removers: Array<() => void> = [];
  const dispose = () => {
    for (const remove of removers.splice(0)) remove();
  };
  for (const source of signals) {
    if (source.aborted) {
      dispose();
      controller.abort(source.reason);
      return { signal: controller.signal, dispose: () => {} };
    }
    removers.push(
      onAbort(source, (reason) => {
        dispose();
        controller.abort(reason);
      }),
    );
  }
  return { signal: controller.signal, dispose };
}

/** Throws a `StoppedError` carrying the signal's typed stop reason if the signal has been aborted. */
export function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new StoppedError(stopReasonOf(signal));
}

/**
 * Settles as `promise` does, or rejects with a `StoppedError` (the signal's typed reason) as soon as
 * `signal` aborts, whichever comes first. The listener is removed either way. The underlying operation is
 * not cancelled by this: it must watch the signal itself; this only stops the caller from waiting on it.
 */
export function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The abandoned promise may still reject later; nobody waits on it, so keep that from being unhandled.
    promise.catch(() => {});
    return Promise.reject(new StoppedError(stopReasonOf(signal)));
  }
  return new Promise<T>((resolve, reject) => {
    const remove = onAbort(signal, () => {
      promise.catch(() => {});
      reject(new StoppedError(stopReasonOf(signal)));
    });
    promise.then(
      (value) => {
        remove();
        resolve(value);
      },
      (error: unknown) => {
        remove();
        reject(error);
      },
    );
  });
}
