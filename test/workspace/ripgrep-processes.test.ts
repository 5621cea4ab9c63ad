/**
 * The process-wide cap on ripgrep processes: a FIFO semaphore (ProcessSlots), and twenty parallel
 * searches through real ripgrep that never run more than four processes at once.
 */
import { chmod, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoppedError } from '../../src/engine/errors.js';
import { policyMatcher } from '../../src/engine/workspace/policy.js';
import { findRipgrepOnPath } from '../../src/engine/workspace/search/find-ripgrep.js';
import { ProcessSlots, ripgrepProcesses } from '../../src/engine/workspace/search/process-slots.js';
import { searchWithRipgrep } from '../../src/engine/workspace/search/ripgrep-search.js';
import { createTempTree, type TempTree } from './temp-tree.js';

describe('ProcessSlots', () => {
  it('grants at most `limit` slots and hands freed ones to the waiting callers in arrival order', async () => {
    const slots = new ProcessSlots(4);
    const granted: number[] = [];
    const releases = new Map<number, () => void>();
    const acquisitions = Array.from({ length: 20 }, (_, index) =>
      slots.acquire().then((release) => {
        granted.push(index);
        releases.set(index, release);
      }),
    );
    await Promise.all(acquisitions.slice(0, 4));
    expect(granted).toEqual([0, 1, 2, 3]);
    expect([slots.active, slots.waiting]).toEqual([4, 16]);

    for (let next = 4; next < 20; next++) {
      releases.get(next - 4)!();
      await acquisitions[next];
      expect(granted).toEqual(Array.from({ length: next + 1 }, (_, index) => index));
      expect(slots.active).toBe(4);
    }
    releases.get(0)!(); // a second release of the same slot changes nothing
    expect(slots.active).toBe(4);
    for (let index = 16; index < 20; index++) releases.get(index)!();
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it('lets a caller whose signal aborts leave the queue without taking a slot', async () => {
    const slots = new ProcessSlots(1);
    const release = await slots.acquire();
    const controller = new AbortController();
    const leaving = slots.acquire(controller.signal);
    const staying = slots.acquire();
    expect(slots.waiting).toBe(2);
    controller.abort({ kind: 'user' });
    await expect(leaving).rejects.toEqual(new StoppedError({ kind: 'user' }));
    expect(slots.waiting).toBe(1);
    release();
    (await staying)();
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
    await expect(slots.acquire(controller.signal)).rejects.toBeInstanceOf(StoppedError);
  });
});

const ripgrepPath = await findRipgrepOnPath();

describe.skipIf(ripgrepPath === null || process.platform === 'win32')('twenty parallel ripgrep searches', () => {
  let tree: TempTree;
  beforeAll(async () => {
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`d${index % 5}/f${index}.txt`, `needle ${index}\nhay\n`]));
    tree = await createTempTree(files);
    // ripgrep itself, behind a script that logs when each process starts and ends.
    await tree.write(
      'bin/rg',
      `#!/bin/sh\necho start >> "${tree.path('processes.log')}"\n"${ripgrepPath}" "$@"\nstatus=$?\necho end >> "${tree.path('processes.log')}"\nexit $status\n`,
    );
    await chmod(tree.path('bin/rg'), 0o755);
  });
  afterAll(() => tree.cleanup());

  it('run at most four ripgrep processes at once, and all return their matches', async () => {
    const context = { root: tree.root, matcher: policyMatcher() };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        searchWithRipgrep(tree.path('bin/rg'), context, {
          pattern: `needle ${index}$`,
          start: `d${index % 5}`,
          startIsFile: false,
          caseInsensitive: false,
          maxResults: 10,
          maxFileBytes: 1024 * 1024,
        }),
      ),
    );
    expect(results.map((result) => result.matches.map((match) => `${match.path}:${match.line}`))).toEqual(
      Array.from({ length: 20 }, (_, index) => [`d${index % 5}/f${index}.txt:1`]),
    );
    const events = (await readFile(tree.path('processes.log'), 'utf8')).trim().split('\n');
    expect(events.filter((event) => event === 'start')).toHaveLength(20);
    let alive = 0;
    let mostAlive = 0;
    for (const event of events) {
      alive += event === 'start' ? 1 : -1;
      mostAlive = Math.max(mostAlive, alive);
    }
    expect(mostAlive).toBeLessThanOrEqual(4);
    expect(alive).toBe(0);
    expect([ripgrepProcesses.active, ripgrepProcesses.waiting]).toEqual([0, 0]);
  });
});
