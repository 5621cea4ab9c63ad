/**
 * A dependency link whose folder is under /tmp (a clone there sharing another clone's install) comes back,
 * read-only, into the sandbox's private /tmp: only a directory named as a dependency folder, the user's or
 * root's alone, holding neither the workspace, the home nor the copy; never a socket folder, a FIFO or a file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bubblewrapArguments } from '../../src/engine/commands/sandbox/bubblewrap.js';
import { commandLaunch } from '../../src/engine/commands/sandbox/command-launch.js';
import { defaultResourceLimits } from '../../src/engine/commands/sandbox/resource-limits.js';
import { detectSandbox } from '../../src/engine/commands/sandbox/sandbox-availability.js';
import { serverPolicy } from '../../src/engine/commands/sandbox/server-policy.js';
import { temporaryDependencyFolders } from '../../src/engine/commands/sandbox/temporary-dependencies.js';

let top: string;
let workspace: string;

/** A folder `relative` under `top` with a file in it, as an install leaves it. */
function install(relative: string): string {
  const folder = path.join(top, relative);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), '{"name":"dependency"}');
  return folder;
}

function linkFrom(folder: string, target: string, name = 'node_modules'): void {
  symlinkSync(target, path.join(folder, name), 'dir');
}

beforeEach(() => {
  top = realpathSync(mkdtempSync('/tmp/agent-team-tmp-dependencies-'));
  workspace = path.join(top, 'workspace');
  mkdirSync(workspace);
});

afterEach(() => {
  rmSync(top, { recursive: true, force: true });
});

describe('dependency folders under /tmp', () => {
  it("reads back a link's real node_modules, .venv or venv under /tmp, found in any folder given", () => {
    const modules = install('clone/node_modules');
    const environment = install('python/.venv');
    linkFrom(workspace, modules);
    const cwd = path.join(workspace, 'sub');
    mkdirSync(cwd);
    linkFrom(cwd, environment, 'venv');
    expect(temporaryDependencyFolders({ folders: [workspace, cwd], keptHidden: [] }).sort()).toEqual([modules, environment].sort());
  });

  it('nothing for a folder of its own (it is in the copy already), nor for a link outside /tmp', () => {
    mkdirSync(path.join(workspace, 'node_modules'));
    const other = path.join(top, 'other');
    mkdirSync(other);
    linkFrom(other, '/usr/lib');
    expect(temporaryDependencyFolders({ folders: [workspace, other], keptHidden: [] })).toEqual([]);
  });

  it('never a target of another name: a node_modules -> /tmp/ssh-x brings no socket folder back', () => {
    linkFrom(workspace, install('ssh-agent-x'));
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [] })).toEqual([]);
  });

  it('never a target a group or others may write, nor one below such a folder', () => {
    const shared = install('shared/node_modules');
    linkFrom(workspace, shared);
    chmodSync(shared, 0o775);
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [] })).toEqual([]);
    chmodSync(shared, 0o755);
    chmodSync(path.dirname(shared), 0o777);
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [] })).toEqual([]);
  });

  it('never one owned by another user', () => {
    const modules = install('clone/node_modules');
    linkFrom(workspace, modules);
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [], uid: 12345 })).toEqual(
      process.getuid?.() === 0 ? [modules] : [],
    );
  });

  it('never a target that is or holds the real workspace, the home or the copy', () => {
    const modules = install('outer/node_modules');
    const real = path.join(modules, 'project');
    mkdirSync(real);
    linkFrom(workspace, modules);
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [real] })).toEqual([]);
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [modules] })).toEqual([]);
    // A kept folder named through a link counts by its real path.
    const alias = path.join(top, 'alias');
    symlinkSync(real, alias);
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [alias] })).toEqual([]);
  });

  it('never a FIFO or a file, nor a link that leads nowhere', () => {
    const fifo = path.join(top, 'fifo', 'node_modules');
    mkdirSync(path.dirname(fifo));
    execFileSync('mkfifo', [fifo]);
    linkFrom(workspace, fifo);
    const file = path.join(top, 'file', '.venv');
    mkdirSync(path.dirname(file));
    writeFileSync(file, '');
    linkFrom(workspace, file, '.venv');
    linkFrom(workspace, path.join(top, 'missing', 'node_modules'), 'venv');
    expect(temporaryDependencyFolders({ folders: [workspace], keptHidden: [] })).toEqual([]);
  });

  it("in a server's policy: from its read-back folder, after the private /tmp, credential files in it hidden", () => {
    const modules = install('clone/node_modules');
    const token = path.join(modules, '.npmrc');
    writeFileSync(token, '//registry.npmjs.org/:_authToken=x');
    const server = path.join(top, 'server');
    mkdirSync(server);
    writeFileSync(path.join(server, 'server.mjs'), '');
    linkFrom(server, modules);
    const copy = path.join(top, 'copy');
    mkdirSync(copy);
    const policy = serverPolicy({
      command: 'node',
      args: [path.join(server, 'server.mjs')],
      copy: { writable: [copy], readOnly: [] },
      cwd: copy,
      workspaceRoot: workspace,
      userHome: '/nonexistent-home',
      userEnvironment: { PATH: '/usr/bin' },
      network: false,
    });
    expect(policy.readOnly).toContain(modules);
    expect(policy.hiddenFiles).toContain(token);
    const args = bubblewrapArguments(policy, ['true']).join(' ');
    expect(args.indexOf(`--ro-bind ${modules} ${modules}`)).toBeGreaterThan(args.indexOf('--tmpfs /tmp'));
  });

  it('in a real sandbox: a command reads the linked folder, cannot write it, and sees nothing else of /tmp', async () => {
    const availability = await detectSandbox();
    if (!availability.available) return expect(availability.reason).toBeTruthy();
    const modules = install('clone/node_modules');
    writeFileSync(path.join(top, 'clone', 'secret'), 'not for the sandbox');
    linkFrom(workspace, modules);
    const copy = path.join(top, 'copy');
    mkdirSync(copy);
    // As the overlay view shows it: the workspace's own link, to the real folder.
    linkFrom(copy, modules);
    const command =
      'cat node_modules/package.json; touch node_modules/x 2>/dev/null && echo WROTE; cat ../clone/secret 2>/dev/null || echo HIDDEN';
    const launch = await commandLaunch({
      command,
      cwd: copy,
      environment: { PATH: '/usr/bin:/bin' },
      limits: defaultResourceLimits,
      sandbox: {
        availability,
        workspaceRoot: workspace,
        userHome: '/nonexistent-home',
        copy: { writable: [copy], readOnly: [] },
        network: false,
      },
    });
    const result = spawnSync(launch.file, launch.args, { env: launch.environment, encoding: 'utf8' });
    expect(result.stdout, result.stderr).toContain('{"name":"dependency"}');
    expect(result.stdout).not.toContain('WROTE');
    expect(result.stdout).toContain('HIDDEN');
  });
});
