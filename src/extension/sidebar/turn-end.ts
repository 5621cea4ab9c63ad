/**
 * For the sidebar's outbox (outbox.ts). Runs `callback` once the current turn of the loop has run its synchronous work (a microtask): what one
 * event brings goes out together, without a timer's wait (a timer of 0 waits 1-10 ms on a busy machine).
 */
export function atTurnEnd(callback: () => void): () => void {
  let cancelled = false;
  queueMicrotask(() => {
    if (!cancelled) callback();
  });
  return () => {
    cancelled = true;
  };
}
