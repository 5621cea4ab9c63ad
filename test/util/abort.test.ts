import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { StoppedError } from '../../src/engine/errors.js';
import { combineSignals, linkAbort, linkSignals, onAbort, raceWithSignal, throwIfStopped } from '../../src/engine/abort.js';
import { createDeferred } from '../../src/engine/util/deferred.js';

/** An AbortController whose signal counts its listeners, to prove the helpers remove theirs. */
function countingController() {
  const controller = new AbortController();
  let listeners = 0;
  const add = controller.signal.addEventListener.bind(controller.signal);
  const remove = controller.signal.removeEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    listeners++;
    add(...args);
  }) as AbortSignal['addEventListener'];
  controller.signal.removeEventListener = ((...args: Parameters<AbortSignal['removeEventListener']>) => {
    listeners--;
    remove(...args);
  }) as AbortSignal['removeEventListener'];
  return { controller, listeners: () => listeners };
}

describe('abort helpers', () => {
  it('linkSignals forwards the parent reason (or a mapped one) and unlink removes the listener', () => {
    const parent = countingController();
    const child = new AbortController();
    const unlink = linkSignals(parent.controller.signal, child, (reason) => ({
      kind: 'parent-stopped',
      parentId: String((reason as { id: string }).id),
    }));
    expect(parent.listeners()).toBe(1);
    parent.controller.abort({ id: 't1' });
    expect(child.signal.reason).toEqual({ kind: 'parent-stopped', parentId: 't1' });
    unlink();

    const other = countingController();
    const child2 = new AbortController();
    const unlink2 = linkSignals(other.controller.signal, child2);
    unlink2();
    expect(other.listeners()).toBe(0);
    other.controller.abort('late');
    expect(child2.signal.aborted).toBe(false);
  });

  it('linkSignals detaches from the parent once the child aborts on its own', () => {
    const parent = countingController();
    const child = new AbortController();
    linkSignals(parent.controller.signal, child);
    child.abort({ kind: 'user' });
    expect(parent.listeners()).toBe(0);
  });

  it('linkSignals aborts at once when the parent already has', () => {
    const parent = new AbortController();
    parent.abort({ kind: 'shutdown' });
    const child = new AbortController();
    linkSignals(parent.signal, child);
    expect(child.signal.reason).toEqual({ kind: 'shutdown' });
  });

  it('combineSignals aborts with the first reason and dispose removes every listener', () => {
    const first = countingController();
    const second = countingController();
    const combined = combineSignals([first.controller.signal, second.controller.signal]);
    second.controller.abort({ kind: 'budget', detail: 'x' });
    expect(combined.signal.reason).toEqual({ kind: 'budget', detail: 'x' });
    expect(first.listeners() + second.listeners()).toBe(0);

    const third = countingController();
    const disposed = combineSignals([third.controller.signal]);
    disposed.dispose();
    expect(third.listeners()).toBe(0);
  });

  it('onAbort calls back once, at once when already aborted, and can be removed', () => {
    const controller = new AbortController();
    const calls: unknown[] = [];
    const remove = onAbort(controller.signal, (reason) => calls.push(reason));
    remove();
    controller.abort('r');
    expect(calls).toEqual([]);
    onAbort(controller.signal, (reason) => calls.push(reason));
    expect(calls).toEqual(['r']);
  });

  it('raceWithSignal rejects with a typed StoppedError on abort and passes results through otherwise', async () => {
    const controller = new AbortController();
    const never = createDeferred<string>();
    const racing = raceWithSignal(never.promise, controller.signal);
    controller.abort({ kind: 'parent-stopped', parentId: 't9' });
    await expect(racing).rejects.toMatchObject({ reason: { kind: 'parent-stopped', parentId: 't9' } });
    await expect(raceWithSignal(Promise.resolve(5), new AbortController().signal)).resolves.toBe(5);
  });

  it('throwIfStopped throws only after an abort, with the stop reason', () => {
    const controller = new AbortController();
    expect(() => throwIfStopped(controller.signal)).not.toThrow();
    controller.abort({ kind: 'user' });
    expect(() => throwIfStopped(controller.signal)).toThrow(StoppedError);
  });

  it('throwIfStopped accepts a missing signal (an operation nobody can stop)', () => {
    expect(() => throwIfStopped(undefined)).not.toThrow();
  });

  it('linkAbort forwards the parent reason, aborts on its own, and leaves no listener on the parent', () => {
    const parent = new AbortController();
    const listeners = () => getEventListeners(parent.signal, 'abort').length;
    const forwarded = linkAbort(parent.signal);
    const own = linkAbort(parent.signal);
    const disposed = linkAbort(parent.signal);
    expect(listeners()).toBe(3);
    // The link's one listener is the parent's: the child's signal carries none of the link's own.
    expect(getEventListeners(forwarded.signal, 'abort')).toHaveLength(0);
    own.abort({ kind: 'budget', detail: 'tool budget' });
    expect(own.signal.reason).toEqual({ kind: 'budget', detail: 'tool budget' });
    expect(listeners()).toBe(2);
    disposed.dispose();
    expect(listeners()).toBe(1);
    parent.abort({ kind: 'user' });
    expect(forwarded.signal.reason).toEqual({ kind: 'user' });
    expect(disposed.signal.aborted).toBe(false);
    expect(listeners()).toBe(0);
  });

  it('linkAbort of a parent already aborted is aborted at once with its reason, adding no listener', () => {
    const parent = new AbortController();
    parent.abort({ kind: 'user' });
    const link = linkAbort(parent.signal);
    expect(link.signal.reason).toEqual({ kind: 'user' });
    link.abort({ kind: 'budget', detail: 'late' });
    link.dispose();
    expect(link.signal.reason).toEqual({ kind: 'user' });
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });
});
