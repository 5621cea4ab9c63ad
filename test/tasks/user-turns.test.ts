/** One question to the user at a time (user-turns.ts): in order, and never held by a task that was stopped. */
import { describe, expect, it } from 'vitest';
import { raceWithSignal } from '../../src/engine/abort.js';
import { StoppedError } from '../../src/engine/errors.js';
import { UserTurns } from '../../src/engine/tasks/user-turns.js';
import { createDeferred } from '../../src/engine/util/deferred.js';

/** A question that waits for an answer the test gives, stoppable like a task's (raced with its signal). */
function question(turns: UserTurns, log: string[], name: string) {
  const controller = new AbortController();
  const answer = createDeferred<string>();
  const put = createDeferred<void>();
  const queued: boolean[] = [];
  const done = turns.take(
    () => {
      log.push(`put ${name}`);
      put.resolve();
      return raceWithSignal(answer.promise, controller.signal);
    },
    controller.signal,
    (value) => queued.push(value),
  );
  done.catch(() => undefined);
  return { controller, answer, put: put.promise, queued, done };
}

describe('UserTurns', () => {
  it('puts questions one at a time, in the order they came; the ones that wait say so', async () => {
    const turns = new UserTurns();
    const log: string[] = [];
    const [first, second, third] = ['one', 'two', 'three'].map((name) => question(turns, log, name));
    await first.put;
    expect(log).toEqual(['put one']);
    expect(turns.queued).toBe(2);
    expect([first.queued, second.queued, third.queued]).toEqual([[], [true], [true]]);
    first.answer.resolve('a');
    await second.put;
    expect(second.queued).toEqual([true, false]);
    expect(log).toEqual(['put one', 'put two']);
    second.answer.resolve('b');
    await third.put;
    third.answer.resolve('c');
    expect(await Promise.all([first.done, second.done, third.done])).toEqual(['a', 'b', 'c']);
    expect(turns.queued).toBe(0);
  });

  it('a stopped asker gives the turn on at once, whether it was asking or still queued', async () => {
    const turns = new UserTurns();
    const log: string[] = [];
    const [first, second, third] = ['one', 'two', 'three'].map((name) => question(turns, log, name));
    await first.put;
    second.controller.abort();
    await expect(second.done).rejects.toBeInstanceOf(StoppedError);
    expect(second.queued).toEqual([true, false]);
    // The one asking is stopped (its answer never comes): the next waiting question is put.
    first.controller.abort();
    await expect(first.done).rejects.toBeInstanceOf(StoppedError);
    await third.put;
    expect(log).toEqual(['put one', 'put three']);
    third.answer.resolve('c');
    expect(await third.done).toBe('c');
    // Free again: the next question is put at once.
    const fourth = question(turns, log, 'four');
    await fourth.put;
    expect(fourth.queued).toEqual([]);
  });
});
