/**
 * Where scratch copies live, tried as another local user would: the shared name made first by someone
 * else, or as a link. The copies still work, in a folder only we own, and nothing is written into the
 * squatted one. `XDG_RUNTIME_DIR` is used when it is a private folder of ours.
 */
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchCopies } from '../../src/engine/commands/scratch-copies.js';
import { privateScratchPlace } from '../../src/engine/commands/scratch-directory.js';

const uid = process.getuid?.() ?? 0;
const asRoot = uid === 0;
let base: string;
let workspace: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'agent-team-place-test-'));
  workspace = path.join(base, 'workspace');
  await mkdir(workspace);
  await writeFile(path.join(workspace, 'a.txt'), 'a\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** True when `folder` is a directory (not a link) of ours that nobody else may enter. */
async function oursAlone(folder: string): Promise<boolean> {
  const info = await lstat(folder);
  return info.isDirectory() && info.uid === uid && (info.mode & 0o077) === 0;
}

describe('the scratch place', () => {
  it('is agent-team-scratch-<uid> in the temporary directory, made private', async () => {
    const place = await privateScratchPlace({ temporary: base, environment: {} });
    expect(place).toEqual({ path: path.join(base, `agent-team-scratch-${uid}`), fresh: false });
    expect(await oursAlone(place.path)).toBe(true);
  });

  it('is under XDG_RUNTIME_DIR when that is a private folder of ours, and not when it is open or relative', async () => {
    const runtime = path.join(base, 'runtime');
    await mkdir(runtime, { mode: 0o700 });
    expect(await privateScratchPlace({ temporary: base, environment: { XDG_RUNTIME_DIR: runtime } })).toEqual({
      path: path.join(runtime, 'agent-team-scratch'),
      fresh: false,
    });
    await chmod(runtime, 0o755);
    expect((await privateScratchPlace({ temporary: base, environment: { XDG_RUNTIME_DIR: runtime } })).path).toBe(
      path.join(base, `agent-team-scratch-${uid}`),
    );
    expect((await privateScratchPlace({ temporary: base, environment: { XDG_RUNTIME_DIR: 'runtime' } })).path).toBe(
      path.join(base, `agent-team-scratch-${uid}`),
    );
  });

  it('closes a folder of ours that was left open', async () => {
    const open = path.join(base, 'open');
    await mkdir(open, { mode: 0o755 });
    await chmod(open, 0o755);
    expect(await privateScratchPlace({ preferred: open })).toEqual({ path: open, fresh: false });
    expect((await stat(open)).mode & 0o777).toBe(0o700);
  });

  it('squatted as a link: a fresh private folder instead, and the link’s target is left alone', async () => {
    const target = path.join(base, 'attacker');
    await mkdir(target, { mode: 0o777 });
    await symlink(target, path.join(base, `agent-team-scratch-${uid}`));
    const place = await privateScratchPlace({ temporary: base, environment: {} });
    expect(place.fresh).toBe(true);
    expect(path.dirname(place.path)).toBe(base);
    expect(path.basename(place.path)).toMatch(new RegExp(`^agent-team-scratch-${uid}-.+`));
    expect(await oursAlone(place.path)).toBe(true);
    expect(await readdir(target)).toEqual([]);
  });

  it.skipIf(!asRoot)(
    'squatted by another user: the copies work in a folder only we own; the squatted one stays empty and the fresh one goes',
    async () => {
      const squatted = path.join(base, 'squatted');
      await mkdir(squatted, { mode: 0o777 });
      await chmod(squatted, 0o777);
      await chown(squatted, 65534, 65534);
      const trees = new ScratchCopies({ workspaceRoot: workspace, directory: squatted, kind: 'git' });
      const copy = await trees.acquire('t1');
      const used = await trees.directory();
      expect(used).not.toBe(squatted);
      expect(await oursAlone(used)).toBe(true);
      expect(copy.cwd.startsWith(`${used}${path.sep}`)).toBe(true);
      await copy.prepare([{ path: 'b.txt', content: 'b\n' }]);
      expect((await readdir(copy.cwd)).sort()).toEqual(['a.txt', 'b.txt']);
      trees.release('t1', copy);
      await trees.dispose();
      expect(await readdir(squatted)).toEqual([]);
      await expect(lstat(used)).rejects.toThrow();
    },
  );
});
