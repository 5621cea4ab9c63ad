/** The one Disposable base (engine/util/disposable.ts): reverse order, once, all of them whatever one throws. */
import { describe, expect, it } from 'vitest';
import { Disposable, DisposableStore } from '../../src/engine/util/disposable.js';

function recorder() {
  const released: string[] = [];
  return {
    released,
    item: (name: string) => ({ dispose: () => released.push(name) }),
    release: (name: string) => () => released.push(name),
  };
}

describe('DisposableStore', () => {
  it('releases what it holds in the reverse of the order it was added: disposables and functions alike', () => {
    const { released, item, release } = recorder();
    const store = new DisposableStore();
    store.add(item('a'));
    store.addAll(release('b'), item('c'));
    store.dispose();
    expect(released).toEqual(['c', 'b', 'a']);
  });

  it('is idempotent: a second dispose releases nothing again', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    store.add(item('a'));
    store.dispose();
    store.dispose();
    expect(released).toEqual(['a']);
    expect(store.isDisposed).toBe(true);
  });

  it('releases the others when one throws, then throws its error; several errors are thrown together', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    store.addAll(
      item('a'),
      {
        dispose: () => {
          throw new Error('b broke');
        },
      },
      item('c'),
    );
    expect(() => store.dispose()).toThrow('b broke');
    expect(released).toEqual(['c', 'a']);

    const twice = new DisposableStore();
    twice.addAll(
      () => {
        throw new Error('one');
      },
      () => {
        throw new Error('two');
      },
    );
    let thrown: unknown;
    try {
      twice.dispose();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((error: Error) => error.message)).toEqual(['two', 'one']);
  });

  it('releases at once what is added after it was disposed, so a late subscription does not leak', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    store.dispose();
    const late = store.add(item('late'));
    expect(released).toEqual(['late']);
    expect(late.dispose).toBeTypeOf('function');
  });

  it('clear releases what is held and goes on holding what comes next', () => {
    const { released, item } = recorder();
    const store = new DisposableStore();
    store.add(item('a'));
    store.clear();
    store.add(item('b'));
    expect(released).toEqual(['a']);
    store.dispose();
    expect(released).toEqual(['a', 'b']);
  });
});

describe('Disposable', () => {
  class Watcher extends Disposable {
    constructor(released: string[]) {
      super();
      this.register(() => released.push('first'));
      this.register({ dispose: () => released.push('second') });
    }
    get disposed(): boolean {
      return this.isDisposed;
    }
  }

  it('a subclass registers what it holds; dispose releases it newest first, once', () => {
    const released: string[] = [];
    const watcher = new Watcher(released);
    expect(watcher.disposed).toBe(false);
    watcher.dispose();
    watcher.dispose();
    expect(released).toEqual(['second', 'first']);
    expect(watcher.disposed).toBe(true);
  });
});
