/**
 * Abort-signal plumbing for the agent loop. Every listener added to a caller's signal is removed again:
 * a long-lived signal (a task's, the extension's) must not collect one listener per turn or tool call.
 */

/** A child of `parent`: aborts with the parent's own reason, and can also be aborted on its own. */
export interface LinkedAbort {
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  /** Detaches from the parent. Call it when the child's work is over. */
  dispose(): void;
}

export function linkAbort(parent: AbortSignal): LinkedAbort {
  const controller = new AbortController();
  const abort = (reason: unknown) => controller.abort(reason);
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, abort, dispose: () => {} };
  }
  // Forwarding the parent's reason keeps the typed StopReason visible to the model adapter and the tools.
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, abort, dispose: () => parent.removeEventListener('abort', forward) };
}

/** Calls `listener` once when `signal` aborts (at once if it already has); returns the remover. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => {};
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
