/**
 * The CLI's trust store on disk, tried as something else on the machine would try it: a link planted at
 * its name, a FIFO, another user's file, damaged JSON, a `__proto__` key. Each is treated as an empty store
 * (and said); a write never goes through a link, and leaves a 0600 file in a 0700 folder.
 */
import { chown, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTrustStore, recordTrust, trustStorePath } from '../../src/cli/trust-store.js';

const hash = `sha256:${'a'.repeat(64)}`;
let directory: string;
let store: string;
let warnings: string[];
const warn = (message: string) => warnings.push(message);

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'agent-team-trust-'));
  store = path.join(directory, 'agent-team', 'trusted-folders.json');
  warnings = [];
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the trust store', () => {
  it('is under $XDG_CONFIG_HOME when it is absolute, else ~/.config', () => {
    expect(trustStorePath({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/u' })).toBe('/x/config/agent-team/trusted-folders.json');
    expect(trustStorePath({ XDG_CONFIG_HOME: 'relative', HOME: '/home/u' })).toBe('/home/u/.config/agent-team/trusted-folders.json');
    expect(trustStorePath({ HOME: '/home/u' })).toBe('/home/u/.config/agent-team/trusted-folders.json');
  });

  it('is empty, silently, when there is none; a yes is recorded 0600 in a 0700 folder and read back', async () => {
    expect(await readTrustStore(store, warn)).toEqual({});
    await recordTrust(store, '/work/project', hash, new Date('2026-01-02T03:04:05Z'), warn);
    expect((await stat(store)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(store))).mode & 0o777).toBe(0o700);
    expect(await readTrustStore(store, warn)).toEqual({ '/work/project': { hash, trustedAt: '2026-01-02T03:04:05.000Z' } });
    await recordTrust(store, '/work/other', hash, new Date(), warn);
    expect(Object.keys(await readTrustStore(store, warn)).sort()).toEqual(['/work/other', '/work/project']);
    expect(warnings).toEqual([]);
  });

  it('does not read through a link planted at its name, and a write replaces the link, never its target', async () => {
    const target = path.join(directory, 'elsewhere.json');
    await writeFile(target, JSON.stringify({ version: 1, folders: { '/work/project': { hash, trustedAt: 'x' } } }));
    await mkdir(path.dirname(store), { recursive: true });
    await symlink(target, store);
    expect(await readTrustStore(store, warn)).toEqual({});
    expect(warnings.join('\n')).toContain('it is a link');
    await recordTrust(store, '/work/mine', hash, new Date(), warn);
    expect((await lstat(store)).isSymbolicLink()).toBe(false);
    expect(await readFile(target, 'utf8')).toContain('/work/project');
    expect(Object.keys(await readTrustStore(store, warn))).toEqual(['/work/mine']);
  });

  it('treats a FIFO, damaged JSON and malformed entries as nothing trusted, without hanging', async () => {
    await mkdir(path.dirname(store), { recursive: true });
    execFileSync('mkfifo', [store]);
    expect(await readTrustStore(store, warn)).toEqual({});
    expect(warnings.at(-1)).toContain('it is not a regular file');
    await rm(store);
    await writeFile(store, '{"version": 1, "folders": ');
    expect(await readTrustStore(store, warn)).toEqual({});
    expect(warnings.at(-1)).toContain('is damaged');
    // A key `__proto__` (only raw JSON can hold one) is a key like any other, not the object's prototype.
    await writeFile(
      store,
      `{"version": 1, "folders": {"/a": {"hash": "sha256:short", "trustedAt": "x"}, "__proto__": {"hash": "${hash}", "trustedAt": "x"}}}`,
    );
    const folders = await readTrustStore(store, warn);
    expect(Object.keys(folders)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(folders)).toBe(null);
  });

  it.skipIf(process.getuid?.() !== 0)("treats another user's store as empty, and refuses to write into another user's folder", async () => {
    await recordTrust(store, '/work/project', hash, new Date(), warn);
    await chown(store, 4242, 4242);
    expect(await readTrustStore(store, warn)).toEqual({});
    expect(warnings.at(-1)).toContain('it belongs to another user');
    await chown(path.dirname(store), 4242, 4242);
    await expect(recordTrust(store, '/work/project', hash, new Date(), warn)).rejects.toThrow("another user's: nothing was recorded");
  });
});
