// Waiting on conditions, never on the clock: a deadline bounds every wait, and the thing waited for
// decides when it ends (a locator, a promise the mock server resolves, a predicate polled cheaply).

/** A promise with its resolve/reject outside, for a test to release a held response when it decides. */
export function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Resolves with `promise`'s value, or rejects with `what` once `timeoutMs` has passed. The timer is
 * cleared either way, so a settled wait keeps nothing alive.
 */
export async function within(promise, timeoutMs, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `check` (sync or async) until it returns a truthy value, which it resolves with; rejects with
 * the last failure once `timeoutMs` has passed. For conditions no event announces (a file on disk, a
 * count of requests); anything in the page should use Playwright's auto-waiting locators instead.
 */
export async function eventually(check, { timeoutMs = 10_000, intervalMs = 50, what = 'a condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError ? `: ${lastError.message ?? lastError}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Throws with `message` unless `condition` holds. */
export function assert(condition, message) {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

/** Throws unless `actual` deep-equals `expected` (JSON comparison: plain data only). */
export function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`assertion failed: ${what}\n  expected: ${e}\n  actual:   ${a}`);
}
