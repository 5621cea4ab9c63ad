/**
 * One meaning of a timeout for every timer (src/engine/deadline.ts `hasTimeout`): 0 is no timeout, as the
 * settings document, for withDeadline, the model's idle watch and a tool call alike. Time is a ManualClock.
 */
import { describe, expect, it } from 'vitest';
import { hasTimeout, withDeadline } from '../../src/engine/deadline.js';
import { IdleWatch } from '../../src/engine/model/idle-watch.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';

describe('hasTimeout', () => {
  it('is true only for a positive number of milliseconds a timer can keep', () => {
    expect([0, -1, undefined, Infinity, Number.NaN, 2_147_483_648].map(hasTimeout)).toEqual([false, false, false, false, false, false]);
    expect([1, 60_000, 2_147_483_647].map(hasTimeout)).toEqual([true, true, true]);
  });

  it('withDeadline: 0 never expires, a positive timeout does at its time', async () => {
    const clock = new ManualClock();
    let never = false;
    void withDeadline(new Promise<string>(() => {}), { clock, timeoutMs: 0, expire: () => ((never = true), 'expired') });
    const timed = withDeadline(new Promise<string>(() => {}), { clock, timeoutMs: 1_000, expire: () => 'expired' });
    await clock.advance(1_000_000);
    expect(never).toBe(false);
    await expect(timed).resolves.toBe('expired');
  });

  it('the idle watch of a model stream: 0 waits for ever, as withDeadline does', async () => {
    const clock = new ManualClock();
    let closed = false;
    const watch = new IdleWatch(clock, 0, () => (closed = true));
    let answer!: (value: string) => void;
    const waited = watch.wait(new Promise<string>((resolve) => (answer = resolve)));
    await clock.advance(10_000_000);
    expect(closed).toBe(false);
    answer('event');
    await expect(waited).resolves.toBe('event');
    watch.dispose();
  });
});
