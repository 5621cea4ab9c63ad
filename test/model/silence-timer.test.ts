import { describe, expect, it } from 'vitest';
import { SilenceTimer } from '../../src/engine/silence-timer.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';

const quiet = (silentMs: number) => new Error(`quiet for ${silentMs} ms`);

describe('SilenceTimer (the one silence timer of model streams and A2A exchanges)', () => {
  it('fires after the limit of silence counted from the last restart, with the error for that limit', async () => {
    const clock = new ManualClock();
    const timer = new SilenceTimer(clock, quiet);
    timer.restart(1_000);
    await clock.advance(900);
    timer.restart(1_000);
    await clock.advance(900);
    expect(timer.signal.aborted).toBe(false);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(100);
    expect(timer.signal.aborted).toBe(true);
    expect((timer.signal.reason as Error).message).toBe('quiet for 1000 ms');
    expect(timer.firedAfterMs).toBe(1_000);
    expect(clock.pendingTimers).toBe(0);
  });

  it('does not count time while paused, and a shorter restart fires at its own limit', async () => {
    const clock = new ManualClock();
    const timer = new SilenceTimer(clock, quiet);
    timer.restart(30_000);
    timer.pause();
    await clock.advance(60_000);
    expect(timer.signal.aborted).toBe(false);
    timer.restart(30_000);
    timer.restart(1_500);
    await clock.advance(1_499);
    expect(timer.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(timer.firedAfterMs).toBe(1_500);
  });

  it('never fires once disposed, and a restart after firing changes nothing', async () => {
    const clock = new ManualClock();
    const disposed = new SilenceTimer(clock, quiet);
    disposed.restart(10);
    disposed.dispose();
    await clock.advance(100);
    expect(disposed.signal.aborted).toBe(false);
    expect(clock.pendingTimers).toBe(0);

    const fired = new SilenceTimer(clock, quiet);
    fired.restart(10);
    await clock.advance(10);
    fired.restart(5_000);
    expect(fired.firedAfterMs).toBe(10);
    expect(clock.pendingTimers).toBe(0);
  });

  it('tells onSilence the timeout error when it fires, and a signal asked for only afterwards is aborted with it', async () => {
    const clock = new ManualClock();
    const told: unknown[] = [];
    const timer = new SilenceTimer(clock, quiet, (error) => told.push(error));
    timer.restart(1_000);
    await clock.advance(999);
    expect(told).toEqual([]);
    await clock.advance(1);
    expect(told).toHaveLength(1);
    expect((told[0] as Error).message).toBe('quiet for 1000 ms');
    expect(timer.signal.aborted).toBe(true);
    expect(timer.signal.reason).toBe(told[0]);
    timer.restart(10);
    await clock.advance(100);
    expect(told).toHaveLength(1);
  });
});
