/**
 * Binds nested in a bind of the same kind are left out of bubblewrap's arguments (nested-binds.ts): the
 * rule on its own, and in the real sandbox, where a command sees exactly the same files, and is refused
 * the same writes, with them left out as with every folder bound.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bubblewrapArguments } from '../../src/engine/commands/sandbox/bubblewrap.js';
import { withoutNestedBinds } from '../../src/engine/commands/sandbox/nested-binds.js';
import { detectSandbox } from '../../src/engine/commands/sandbox/sandbox-availability.js';
import { commandPolicy, existingPaths } from '../../src/engine/commands/sandbox/sandbox-policy.js';

const real = (folder: string) => folder;

describe('withoutNestedBinds', () => {
  it('leaves out a folder bound as the nearest bound folder it lies in is, and keeps every other', () => {
    const binds = [
      { folder: '/h/.pyenv', writable: false },
      { folder: '/h/.pyenvx', writable: false },
      { folder: '/h/copy', writable: true },
      { folder: '/h/.pyenv/shims', writable: false },
      { folder: '/h/.pyenv/work', writable: true },
      { folder: '/h/copy/inner', writable: true },
      { folder: '/h/copy/objects', writable: false },
      { folder: '/h/.pyenv/work/cache', writable: false },
      { folder: '/h/.pyenv/plugins/venv/shims', writable: false },
    ];
    expect(withoutNestedBinds(binds, real).map((bind) => bind.folder)).toEqual([
      '/h/.pyenv',
      // A sibling whose name merely starts the same is not inside.
      '/h/.pyenvx',
      '/h/copy',
      // Writable in read-only, read-only in writable: each changes what may be written.
      '/h/.pyenv/work',
      '/h/copy/objects',
      '/h/.pyenv/work/cache',
    ]);
  });

  it('keeps a nested folder whose path holds a link, or whose real path cannot be read', () => {
    const binds = [
      { folder: '/h/.pyenv', writable: false },
      { folder: '/h/.pyenv/linked', writable: false },
      { folder: '/h/.pyenv/gone', writable: false },
    ];
    const realPath = (folder: string) => ({ '/h/.pyenv': '/h/.pyenv', '/h/.pyenv/linked': '/h/elsewhere' })[folder];
    expect(withoutNestedBinds(binds, realPath)).toEqual(binds);
  });
});

describe.skipIf(process.platform !== 'linux')('nested toolchain folders in the real sandbox', () => {
  let base: string;
  let home: string;
  let copy: string;
  let executable: string | undefined;

  beforeAll(async () => {
    const availability = await detectSandbox();
    executable = availability.available && availability.mechanism === 'bubblewrap' ? availability.executable : undefined;
    base = await mkdtemp(path.join(tmpdir(), 'agent-team-nested-binds-'));
    home = path.join(base, 'home');
    copy = path.join(base, 'copy');
    const pyenv = path.join(home, '.pyenv');
    for (const folder of ['bin', 'shims', 'plugins/venv/shims', 'versions/3.12/bin'])
      await mkdir(path.join(pyenv, folder), { recursive: true });
    await mkdir(path.join(home, 'elsewhere'), { recursive: true });
    await mkdir(path.join(home, 'private'), { recursive: true });
    await mkdir(copy);
    await writeFile(path.join(pyenv, 'bin', 'pyenv'), '#!/bin/sh\n', { mode: 0o755 });
    await writeFile(path.join(pyenv, 'shims', 'python'), '#!/bin/sh\n', { mode: 0o755 });
    await writeFile(path.join(pyenv, 'plugins', 'venv', 'shims', 'activate'), 'shim\n');
    await writeFile(path.join(home, 'elsewhere', 'tool'), 'elsewhere\n');
    await writeFile(path.join(home, 'private', 'token'), 'canary-token\n');
    // A toolchain folder that is a link to one beside it: bound where it leads, which lies in no other bind.
    await symlink(path.join(home, 'elsewhere'), path.join(pyenv, 'linked'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  /** What a command in the sandbox sees of the home, and which writes it is refused, with `realPath` judging the binds. */
  function seen(realPath?: (folder: string) => string | undefined): { output: string; binds: number } {
    const pyenv = path.join(home, '.pyenv');
    const policy = commandPolicy({
      copy: { writable: [copy], readOnly: [] },
      cwd: copy,
      workspaceRoot: path.join(base, 'workspace'),
      userHome: home,
      environment: {
        PATH: [
          `${pyenv}/bin`,
          `${pyenv}/shims`,
          `${pyenv}/plugins/venv/shims`,
          `${pyenv}/linked`,
          `${pyenv}/versions/3.12/bin`,
          '/usr/bin',
          '/bin',
        ].join(':'),
      },
      network: false,
    });
    // As commandLaunch makes them: real paths of what exists (the link's bind is of where it leads).
    policy.hidden = existingPaths(policy.hidden);
    policy.readOnly = existingPaths(policy.readOnly);
    const script = [
      `find ${home} -printf '%p %y %m\\n' 2>&1 | sort`,
      ...['shims', 'plugins/venv/shims', 'linked', 'versions/3.12', '.'].map(
        (folder) => `touch ${pyenv}/${folder}/new 2>&1 | sed 's/^touch: //'`,
      ),
      `cat ${pyenv}/linked/tool ${home}/private/token 2>&1`,
      `touch ${copy}/written && echo copy writable`,
    ].join('; ');
    const args = bubblewrapArguments(policy, ['/bin/bash', '-c', script], realPath ? { realPath } : {});
    const output = execFileSync(executable!, args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
    return { output, binds: args.filter((arg) => arg === '--ro-bind' || arg === '--bind').length };
  }

  it('shows the same files and refuses the same writes with the nested binds left out as with every folder bound', (context) => {
    if (!executable) return context.skip();
    const everyFolder = seen(() => undefined);
    const pruned = seen();
    expect(pruned.output).toBe(everyFolder.output);
    // shims, plugins/venv/shims and versions/3.12 lie in .pyenv, bound read-only: three binds fewer.
    expect(everyFolder.binds - pruned.binds).toBe(3);
    // What the listing must hold, so that an empty sandbox could not pass: the toolchain, read-only; the rest of the home hidden.
    expect(pruned.output).toContain(`${home}/.pyenv/shims/python f`);
    expect(pruned.output).toContain(`${home}/.pyenv/plugins/venv/shims/activate f`);
    expect(pruned.output).toContain('Read-only file system');
    expect(pruned.output).toContain('elsewhere');
    expect(pruned.output).not.toContain('canary-token');
    expect(pruned.output).not.toContain(`${home}/private/token f`);
    expect(pruned.output).toContain('copy writable');
  });
});
