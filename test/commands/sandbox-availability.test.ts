/**
 * Where bubblewrap is taken from and whether it is good enough: the system's folders only (never PATH),
 * a program no one else could have planted or changed (the file, its folders, each link's folder), a
 * version with every flag the sandbox uses, and a probe with the very arguments commands get.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectSandbox, versionFailure } from '../../src/engine/commands/sandbox/sandbox-availability.js';
import { findTrustedProgram } from '../../src/engine/commands/sandbox/trusted-program.js';

const cleanup: string[] = [];
afterEach(async () => {
  for (const folder of cleanup.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A folder only this user can write (under the home: /tmp itself is writable by everyone). */
async function trustedFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(homedir(), '.agent-team-trusted-'));
  cleanup.push(folder);
  await chmod(folder, 0o755);
  return folder;
}

async function script(folder: string, name: string, body: string, mode = 0o755): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, mode);
  return file;
}

describe.skipIf(process.platform !== 'linux')('a program the sandbox stands on', () => {
  it('is taken from a folder no one else can write', async () => {
    const folder = await trustedFolder();
    const file = await script(folder, 'bwrap', 'exit 0');
    expect(await findTrustedProgram('bwrap', [folder])).toEqual({ path: file });
  });

  it('is refused when it or a folder above it is writable by others, or it is not executable', async () => {
    const folder = await trustedFolder();
    await script(folder, 'bwrap', 'exit 0', 0o757);
    expect(await findTrustedProgram('bwrap', [folder])).toEqual({
      reason: `${path.join(folder, 'bwrap')} is not used: ${path.join(folder, 'bwrap')} is writable by every user`,
      missing: false,
    });
    await chmod(path.join(folder, 'bwrap'), 0o644);
    expect(await findTrustedProgram('bwrap', [folder])).toMatchObject({ reason: expect.stringContaining('is not executable') });
    await chmod(path.join(folder, 'bwrap'), 0o755);
    await chmod(folder, 0o775);
    expect(await findTrustedProgram('bwrap', [folder])).toMatchObject({
      reason: expect.stringContaining(`${folder} is writable by its group`),
    });
    // /tmp is writable by everyone: nothing under it is trusted.
    const shared = await mkdtemp(path.join(tmpdir(), 'agent-team-untrusted-'));
    cleanup.push(shared);
    await chmod(shared, 0o755);
    await script(shared, 'bwrap', 'exit 0');
    expect(await findTrustedProgram('bwrap', [shared])).toMatchObject({
      reason: expect.stringMatching(/\/tmp is writable by every user$/),
    });
  });

  it('is refused when a link on the way leads through a folder others can write', async () => {
    const folder = await trustedFolder();
    const shared = await mkdtemp(path.join(tmpdir(), 'agent-team-untrusted-'));
    cleanup.push(shared);
    const planted = await script(shared, 'bwrap', 'exit 0');
    await symlink(planted, path.join(folder, 'bwrap'));
    expect(await findTrustedProgram('bwrap', [folder])).toMatchObject({
      reason: expect.stringContaining('/tmp is writable by every user'),
    });
  });

  it('is looked for in the next folder when one lacks it, and said missing when none has it', async () => {
    const empty = await trustedFolder();
    const folder = await trustedFolder();
    const file = await script(folder, 'bwrap', 'exit 0');
    expect(await findTrustedProgram('bwrap', [empty, folder])).toEqual({ path: file });
    expect(await findTrustedProgram('bwrap', [empty])).toEqual({ reason: `bwrap was not found in ${empty}`, missing: true });
  });
});

describe("bubblewrap's version", () => {
  it('must be 0.8.0 or later (--disable-userns), and readable', () => {
    expect(versionFailure('bubblewrap 0.8.0\n')).toBeUndefined();
    expect(versionFailure('bubblewrap 0.11.1\n')).toBeUndefined();
    expect(versionFailure('bubblewrap 1.0.0\n')).toBeUndefined();
    expect(versionFailure('bubblewrap 0.6.1\n')).toBe(
      'it is version 0.6.1, and 0.8.0 or later is needed (for --disable-userns, --size and --cap-drop)',
    );
    expect(versionFailure('bwrap, some version\n')).toContain('its version could not be read');
  });
});

describe.skipIf(process.platform !== 'linux')('finding the sandbox', () => {
  it('never takes bwrap from PATH: a planted one first on PATH is not run', async () => {
    const bin = await mkdtemp(path.join(tmpdir(), 'agent-team-bin-'));
    cleanup.push(bin);
    const marker = path.join(bin, 'ran');
    await script(bin, 'bwrap', `echo ran > ${marker}\nexec "$@"`);
    const found = await detectSandbox({ PATH: `${bin}:${process.env.PATH ?? ''}` });
    expect(found).toMatchObject({ available: true, mechanism: 'bubblewrap' });
    expect(found.available && found.executable.startsWith(bin)).toBe(false);
    await expect(readFile(marker, 'utf8')).rejects.toThrow();
  });

  it('refuses a bubblewrap older than 0.8.0, naming its version', async () => {
    const folder = await trustedFolder();
    await script(folder, 'bwrap', 'echo "bubblewrap 0.6.1"');
    expect(await detectSandbox(process.env, 'linux', [folder])).toEqual({
      available: false,
      reason: `bubblewrap at ${path.join(folder, 'bwrap')} cannot be used: it is version 0.6.1, and 0.8.0 or later is needed (for --disable-userns, --size and --cap-drop)`,
    });
  });

  it('judges one that cannot start a sandbox with these arguments unavailable, with its words', async () => {
    const folder = await trustedFolder();
    await script(
      folder,
      'bwrap',
      'if [ "$1" = --version ]; then echo "bubblewrap 0.9.0"; exit 0; fi\necho "bwrap: Unknown option --disable-userns" >&2\nexit 1',
    );
    expect(await detectSandbox(process.env, 'linux', [folder])).toEqual({
      available: false,
      reason: 'bubblewrap cannot start a sandbox here: bwrap: Unknown option --disable-userns',
    });
  });

  it('says where it looked when there is none', async () => {
    const empty = await trustedFolder();
    await mkdir(path.join(empty, 'sub'));
    expect(await detectSandbox(process.env, 'linux', [empty])).toEqual({
      available: false,
      reason: `bubblewrap (bwrap) is not installed in ${empty} (Debian and Ubuntu: the package 'bubblewrap')`,
    });
  });
});
