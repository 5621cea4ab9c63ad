/**
 * What of /tmp a server's command line brings back into the sandbox's private /tmp: the program or script it
 * names with its folder, widened to the top folder under /tmp, never holding the workspace, the home or a
 * scratch copy, never a folder others may write, never a socket, FIFO or folder argument.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bubblewrapArguments } from '../../src/engine/commands/sandbox/bubblewrap.js';
import { serverPolicy } from '../../src/engine/commands/sandbox/server-policy.js';
import { temporaryProgramPaths } from '../../src/engine/commands/sandbox/server-temporary-files.js';

let top: string;

function plant(relative: string, text = ''): string {
  const file = path.join(top, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

beforeEach(() => {
  top = realpathSync(mkdtempSync('/tmp/agent-team-tmp-program-'));
});

afterEach(() => {
  rmSync(top, { recursive: true, force: true });
});

describe("a server's program under /tmp", () => {
  it('reads back the top folder under /tmp of a script it names, and of its program', () => {
    const script = plant('release/bin/server.mjs');
    expect(temporaryProgramPaths({ words: ['node', script], keptHidden: [] })).toEqual([top]);
    expect(temporaryProgramPaths({ words: [script, '--port', '1'], keptHidden: [] })).toEqual([top]);
  });

  it('follows a link to its real place, and ignores words outside /tmp or that are not absolute', () => {
    const script = plant('release/server.mjs');
    const link = path.join(top, 'link.mjs');
    symlinkSync(script, link);
    expect(temporaryProgramPaths({ words: ['node', link, 'release/server.mjs', '/usr/bin/env'], keptHidden: [] })).toEqual([top]);
  });

  it('never a folder holding the workspace, the home or a scratch copy: it narrows to one that does not', () => {
    const script = plant('servers/calc/server.mjs');
    mkdirSync(path.join(top, 'workspace'));
    mkdirSync(path.join(top, 'servers', 'home'));
    expect(
      temporaryProgramPaths({ words: ['node', script], keptHidden: [path.join(top, 'workspace'), path.join(top, 'servers', 'home')] }),
    ).toEqual([path.join(top, 'servers', 'calc')]);
    // Its own folder holds one: the file alone.
    mkdirSync(path.join(top, 'servers', 'calc', 'copy'));
    expect(temporaryProgramPaths({ words: ['node', script], keptHidden: [path.join(top, 'servers', 'calc', 'copy')] })).toEqual([script]);
  });

  it('nothing from inside the real workspace or home: a workspace word runs from the copy', () => {
    const script = plant('workspace/server.mjs');
    expect(temporaryProgramPaths({ words: ['node', script], keptHidden: [path.join(top, 'workspace')] })).toEqual([]);
  });

  it('never a folder a group or others may write: it narrows below it', () => {
    const script = plant('shared/mine/server.mjs');
    chmodSync(top, 0o777);
    expect(temporaryProgramPaths({ words: ['node', script], keptHidden: [] })).toEqual([path.join(top, 'shared')]);
    chmodSync(path.join(top, 'shared', 'mine'), 0o775);
    expect(temporaryProgramPaths({ words: ['node', script], keptHidden: [] })).toEqual([script]);
  });

  it('the same under /var/tmp, which the sandbox hides too', () => {
    const other = realpathSync(mkdtempSync('/var/tmp/agent-team-tmp-program-'));
    try {
      mkdirSync(path.join(other, 'bin'));
      writeFileSync(path.join(other, 'bin', 'server.mjs'), '');
      expect(temporaryProgramPaths({ words: ['node', path.join(other, 'bin', 'server.mjs')], keptHidden: [] })).toEqual([other]);
      expect(temporaryProgramPaths({ words: ['node', '/var/tmp'], keptHidden: [] })).toEqual([]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('never a socket, FIFO or folder the command line names, nor /tmp itself', () => {
    const fifo = path.join(top, 'pipe');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(path.join(top, 'data'));
    expect(temporaryProgramPaths({ words: ['node', fifo, path.join(top, 'data'), '/tmp', '/tmp/'], keptHidden: [] })).toEqual([]);
  });

  it('in the policy: read back after the private /tmp is mounted, credential files in it hidden', () => {
    const script = plant('release/server.mjs');
    const token = plant('.npmrc', '//registry.npmjs.org/:_authToken=x');
    const workspace = mkdtempSync('/tmp/agent-team-tmp-workspace-');
    try {
      const copy = path.join(workspace, 'copy');
      mkdirSync(copy);
      const policy = serverPolicy({
        command: 'node',
        args: [script],
        copy: { writable: [copy], readOnly: [] },
        cwd: copy,
        workspaceRoot: path.join(workspace, 'real'),
        userHome: '/nonexistent-home',
        userEnvironment: { PATH: '/usr/bin' },
        network: false,
      });
      expect(policy.readOnly).toContain(top);
      expect(policy.hiddenFiles).toContain(token);
      const args = bubblewrapArguments(policy, ['node', script]).join(' ');
      expect(args.indexOf(`--ro-bind ${top} ${top}`)).toBeGreaterThan(args.indexOf('--tmpfs /tmp'));
      expect(args.indexOf(`--ro-bind /dev/null ${token}`)).toBeGreaterThan(args.indexOf(`--ro-bind ${top} ${top}`));
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
