import { describe, expect, it } from 'vitest';
import { Emitter } from '../../src/engine/util/emitter.js';

describe('Emitter', () => {
  it('delivers an event emitted by a listener after the current one, to every listener, in one order', () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    emitter.subscribe((event) => {
      heard.push(`first:${event}`);
      if (event === 'a') emitter.emit('b');
    });
    emitter.subscribe((event) => heard.push(`second:${event}`));
    emitter.emit('a');
    expect(heard).toEqual(['first:a', 'second:a', 'first:b', 'second:b']);
  });

  it('reports a listener that throws and still calls the others', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((error) => errors.push(error));
    const heard: number[] = [];
    emitter.subscribe(() => {
      throw new Error('listener broke');
    });
    emitter.subscribe((event) => heard.push(event));
    emitter.emit(1);
    emitter.emit(0); // falsy events are events too
    expect(heard).toEqual([1, 0]);
    expect(errors).toEqual([new Error('listener broke'), new Error('listener broke')]);
  });

  it('treats the same function subscribed twice as two subscriptions, each removed on its own; clear drops all', () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    const listener = (event: string) => heard.push(event);
    const first = emitter.subscribe(listener);
    emitter.subscribe(listener);
    emitter.emit('x');
    first();
    emitter.emit('y');
    emitter.clear();
    emitter.emit('z');
    expect(heard).toEqual(['x', 'x', 'y']);
  });
});
