/**
 * Where programs the engine starts by name are looked for: never a relative or empty PATH entry, never one
 * inside a workspace opened in this process or the folder the program runs in, whether named directly or
 * through a link.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distrustProgramsUnder, isProgramName, trustedSearchPath, withTrustedSearchPath } from '../../src/engine/program-search-path.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'agent-team-search-path-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('trustedSearchPath', () => {
  it('drops relative and empty entries, and those inside a distrusted workspace, by name or through a link', async () => {
    const workspace = path.join(base, 'workspace');
    const tools = path.join(base, 'tools');
    await mkdir(path.join(workspace, 'bin'), { recursive: true });
    await mkdir(tools);
    await symlink(path.join(workspace, 'bin'), path.join(base, 'linked-bin'));
    distrustProgramsUnder(workspace);
    const entries = [path.join(workspace, 'bin'), '', 'node_modules/.bin', '.', path.join(base, 'linked-bin'), tools, '/usr/bin'];
    expect(trustedSearchPath(entries.join(':'), undefined, ':')).toEqual([tools, '/usr/bin']);
  });

  it('drops entries inside the folder the program runs in, but not for /', async () => {
    const repository = path.join(base, 'repository');
    await mkdir(path.join(repository, 'bin'), { recursive: true });
    const entries = [path.join(repository, 'bin'), '/usr/bin'].join(':');
    expect(trustedSearchPath(entries, repository, ':')).toEqual(['/usr/bin']);
    expect(trustedSearchPath(entries, '/', ':')).toEqual([path.join(repository, 'bin'), '/usr/bin']);
  });

  it('keeps the environment whole but for PATH, found in any case', () => {
    expect(withTrustedSearchPath({ Path: `.${path.delimiter}/usr/bin`, HOME: '/home/x' }, undefined)).toEqual({
      Path: '/usr/bin',
      HOME: '/home/x',
    });
  });

  it('tells a program name from a path', () => {
    expect(isProgramName('git')).toBe(true);
    expect(isProgramName('/usr/bin/git')).toBe(false);
    expect(isProgramName('./git')).toBe(false);
  });
});
