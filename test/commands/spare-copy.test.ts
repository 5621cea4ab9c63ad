/**
 * The copy made ahead (spare-copy.ts), on a stand-in copy: at most one held, the one being made waited
 * for rather than another started, another made once it is taken, a failure to make one never reported.
 */
import { describe, expect, it } from 'vitest';
import type { OverlayCopy } from '../../src/engine/commands/overlay/overlay-copy.js';
import { SpareCopy } from '../../src/engine/commands/spare-copy.js';

/** A stand-in copy that records its removal. */
function standIn(name: string, removed: string[]): OverlayCopy {
  return { name, remove: async () => void removed.push(name) } as unknown as OverlayCopy;
}

/** A maker whose copies the test hands out one by one (no clock: each waits on a promise the test releases). */
function releasedMaker() {
  const releases: Array<(copy: OverlayCopy | undefined) => void> = [];
  const make = () => new Promise<OverlayCopy | undefined>((resolve) => releases.push(resolve));
  return { make, releases };
}

describe('SpareCopy', () => {
  it('makes one at a time: a second fill while one is held starts nothing', async () => {
    const { make, releases } = releasedMaker();
    const spare = new SpareCopy(make);
    const filled = spare.fill();
    void spare.fill();
    expect(releases).toHaveLength(1);
    expect(spare.held).toBe(true);
    const copy = standIn('first', []);
    releases[0]!(copy);
    await filled;
    expect(await spare.take()).toBe(copy);
    expect(spare.held).toBe(false);
  });

  it('take waits for the one being made, and the next fill makes another', async () => {
    const { make, releases } = releasedMaker();
    const spare = new SpareCopy(make);
    void spare.fill();
    const taken = spare.take();
    const copy = standIn('first', []);
    releases[0]!(copy);
    expect(await taken).toBe(copy);
    void spare.fill();
    expect(releases).toHaveLength(2);
  });

  it('gives nothing, and reports nothing, when none could be made, and tries no more; nothing when none was asked for', async () => {
    let tries = 0;
    const spare = new SpareCopy(
      () => ((tries += 1), Promise.reject(new Error('the repository keeps its git directory outside its folder'))),
    );
    expect(await spare.take()).toBeUndefined();
    await expect(spare.fill()).resolves.toBeUndefined();
    expect(await spare.take()).toBeUndefined();
    await spare.fill();
    expect(await spare.take()).toBeUndefined();
    expect(tries).toBe(1);
  });

  it('dispose removes the one held', async () => {
    const removed: string[] = [];
    const spare = new SpareCopy(() => Promise.resolve(standIn('held', removed)));
    await spare.fill();
    await spare.dispose();
    expect(removed).toEqual(['held']);
    expect(spare.held).toBe(false);
  });
});
