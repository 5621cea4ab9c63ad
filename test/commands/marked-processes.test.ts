/**
 * Ending what a command left running, by the mark in its processes' environment: resolved only once they
 * are gone from /proc, not merely signalled (a killed process lingers there while the kernel tears it
 * down, and a check right after used to find it now and then).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandMarkVariable, killMarkedProcesses } from '../../src/engine/commands/sandbox/marked-processes.js';

/** The live (not zombie) processes whose environment carries the mark. */
function carrying(mark: string, pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`${commandMarkVariable}=${mark}`);
    } catch {
      return false;
    }
  });
}

describe.skipIf(process.platform !== 'linux')('killMarkedProcesses', () => {
  it('ends every marked process, in sessions of their own, and returns when none is left', async () => {
    const mark = randomUUID();
    const children = Array.from({ length: 6 }, () =>
      spawn('/bin/sh', ['-c', 'sleep 1000'], { detached: true, stdio: 'ignore', env: { ...process.env, [commandMarkVariable]: mark } }),
    );
    const unmarked = spawn('/bin/sh', ['-c', 'sleep 1000'], { detached: true, stdio: 'ignore' });
    try {
      const pids = children.map((child) => child.pid!);
      expect(carrying(mark, pids)).toEqual(pids);
      expect(await killMarkedProcesses(mark)).toBeGreaterThanOrEqual(pids.length);
      expect(carrying(mark, pids)).toEqual([]);
      // Another command's processes, or the user's, are left alone.
      expect(readFileSync(`/proc/${unmarked.pid}/stat`, 'latin1')).toMatch(/^\d+ \(\w+\) [RSD] /);
    } finally {
      unmarked.kill('SIGKILL');
      for (const child of children) child.kill('SIGKILL');
    }
  });

  it('does nothing on a platform without /proc', async () => {
    expect(await killMarkedProcesses(randomUUID(), 'darwin')).toBe(0);
  });
});
