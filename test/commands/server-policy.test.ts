/**
 * What an MCP server may touch in the sandbox, as a policy: the home and the real workspace hidden, its
 * scratch copy the only writable tree, the user's toolchains read back, the folder a linked program on the user's PATH lives in, credential files inside any folder read
 * back hidden (commands too), and no network unless its entry asks and the user allowed it.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bubblewrapArguments } from '../../src/engine/commands/sandbox/bubblewrap.js';
import { credentialFilesIn } from '../../src/engine/commands/sandbox/credential-files.js';
import { seatbeltProfile } from '../../src/engine/commands/sandbox/seatbelt.js';
import { commandPolicy } from '../../src/engine/commands/sandbox/sandbox-policy.js';
import { serverNetwork } from '../../src/engine/commands/sandbox/server-network.js';
import { intoCopy } from '../../src/engine/commands/sandbox/server-launch.js';
import { programFolders, serverPolicy } from '../../src/engine/commands/sandbox/server-policy.js';
import { readMcpServers } from '../../src/engine/roles/mcp-server-config.js';

let root: string;
let home: string;
let workspace: string;
let copy: string;

/** Makes `relative` under `folder`, with `text`, executable when asked. */
function plant(folder: string, relative: string, text = '', executable = false): string {
  const file = path.join(folder, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (executable) chmodSync(file, 0o755);
  return file;
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-team-server-policy-')));
  home = path.join(root, 'home');
  workspace = path.join(root, 'workspace');
  copy = path.join(root, 'copy');
  for (const folder of [home, workspace, path.join(copy, 'view')]) mkdirSync(folder, { recursive: true });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const policyOf = (options: { userPath?: string; command?: string; network?: boolean; userEnvironment?: Record<string, string> } = {}) =>
  serverPolicy({
    command: options.command ?? 'node',
    copy: { writable: [path.join(copy, 'view')], readOnly: [] },
    cwd: path.join(copy, 'view'),
    workspaceRoot: workspace,
    userHome: home,
    userEnvironment: options.userEnvironment ?? { PATH: options.userPath ?? '/usr/bin' },
    network: options.network ?? false,
  });

describe("an MCP server's sandbox policy", () => {
  it('hides the home and the real workspace, writes only its copy, and has no network by default', () => {
    const policy = policyOf();
    expect(policy.hidden).toEqual(expect.arrayContaining([home, workspace]));
    expect(policy.writable).toEqual([path.join(copy, 'view')]);
    expect(policy.cwd).toBe(path.join(copy, 'view'));
    expect(policy.network).toBe(false);
    expect(policy.home).toBe('/tmp/home');
  });

  it("reads back the user's toolchains, with the credential files inside them hidden", () => {
    plant(home, '.cargo/bin/cargo', '', true);
    const token = plant(home, '.cargo/credentials.toml', 'token = "x"');
    const legacy = plant(home, '.cargo/credentials', 'token = "x"');
    const npmrc = plant(home, '.nvm/versions/node/v22/etc/npmrc', '//registry.npmjs.org/:_authToken=x');
    plant(home, '.nvm/versions/node/v22/bin/node', '', true);
    const policy = policyOf({ userPath: `${home}/.cargo/bin:${home}/.nvm/versions/node/v22/bin:/usr/bin` });
    expect(policy.readOnly).toEqual(expect.arrayContaining([path.join(home, '.cargo'), path.join(home, '.nvm/versions/node/v22')]));
    expect(policy.hiddenFiles).toEqual(expect.arrayContaining([token, legacy, npmrc]));
    // Commands get the same: the shared policy hides them.
    const command = commandPolicy({
      copy: { writable: [copy], readOnly: [] },
      cwd: copy,
      workspaceRoot: workspace,
      userHome: home,
      environment: { PATH: `${home}/.cargo/bin` },
      network: false,
    });
    expect(command.hiddenFiles).toEqual(expect.arrayContaining([token, legacy]));
    // Hidden after the folder is bound back (bubblewrap), denied after it is allowed (Seatbelt: the last rule wins).
    const args = bubblewrapArguments(policy, ['node']).join(' ');
    expect(args.indexOf(`--ro-bind /dev/null ${token}`)).toBeGreaterThan(
      args.indexOf(`--ro-bind ${path.join(home, '.cargo')} ${path.join(home, '.cargo')}`),
    );
    const profile = seatbeltProfile(policy, '/t');
    expect(profile.indexOf(`(deny file-read* (literal "${token}")`)).toBeGreaterThan(
      profile.indexOf(`(subpath "${path.join(home, '.cargo')}")`),
    );
  });

  it('reads back the folder a program on the user\u2019s PATH links to (pipx behind ~/.local/bin), never for a path the role file writes', () => {
    const real = plant(home, '.local/share/pipx/venvs/fetch/bin/mcp-server-fetch', '#!/bin/sh\n', true);
    mkdirSync(path.join(home, '.local/bin'), { recursive: true });
    symlinkSync(real, path.join(home, '.local/bin/mcp-server-fetch'));
    const policy = policyOf({ command: 'mcp-server-fetch', userPath: `${home}/.local/bin:/usr/bin` });
    expect(policy.readOnly).toEqual(
      expect.arrayContaining([path.join(home, '.local/bin'), path.join(home, '.local/share/pipx/venvs/fetch')]),
    );
    expect(programFolders(real, `${home}/.local/bin`, [home], home, workspace)).toEqual([]);
    // A link on PATH that leads into a credential folder or the workspace brings nothing back.
    const key = plant(home, '.ssh/bin/ssh-tool', '', true);
    symlinkSync(key, path.join(home, '.local/bin/ssh-tool'));
    expect(programFolders('ssh-tool', `${home}/.local/bin`, [home, workspace], home, workspace)).toEqual([]);
    const inWorkspace = plant(workspace, 'tools/bin/tool', '', true);
    symlinkSync(inWorkspace, path.join(home, '.local/bin/tool'));
    expect(programFolders('tool', `${home}/.local/bin`, [home, workspace], home, workspace)).toEqual([]);
  });

  it('finds credential files by their real path, regular files only', () => {
    const elsewhere = plant(root, 'secrets/cargo.toml', 'token');
    mkdirSync(path.join(home, '.cargo'), { recursive: true });
    symlinkSync(elsewhere, path.join(home, '.cargo/credentials.toml'));
    mkdirSync(path.join(home, '.cargo/credentials'));
    expect(credentialFilesIn([path.join(home, '.cargo')])).toEqual([elsewhere]);
  });
});

describe("an MCP server's command line", () => {
  it('names the copy where it named the real workspace (hidden in the sandbox)', () => {
    const view = path.join(copy, 'view');
    expect(intoCopy(workspace, workspace, view)).toBe(view);
    expect(intoCopy(`${workspace}/docs`, `${workspace}/`, view)).toBe(path.join(view, 'docs'));
    expect(intoCopy(`${workspace}-other/docs`, workspace, view)).toBe(`${workspace}-other/docs`);
    expect(intoCopy('--root', workspace, view)).toBe('--root');
  });
});

describe("an MCP server's network", () => {
  const allowance = (all: boolean, patterns: string[] = []) => ({ all: () => all, patterns: () => patterns });
  const program = (network: boolean) => ({ command: 'npx', args: ['-y', 'some-server'], network });

  it('is off unless its entry asks for it, whatever the user allowed', () => {
    expect(serverNetwork('web', program(false), allowance(true, ['*']))).toEqual({ network: false });
  });

  it('is on when it asks and the user allowed the network, or a pattern matches its command line', () => {
    expect(serverNetwork('web', program(true), allowance(true)).network).toBe(true);
    expect(serverNetwork('web', program(true), allowance(false, ['npx -y some-server'])).network).toBe(true);
    expect(serverNetwork('web', program(true), allowance(false, ['npx *'])).network).toBe(true);
  });

  it('is off, and says so, when it asks and nothing the user allowed matches (its name is not its command line)', () => {
    const refused = serverNetwork('web', program(true), allowance(false, ['web', 'npm install', 'npx -y other']));
    expect(refused.network).toBe(false);
    expect(refused.notice).toMatch(/^MCP server 'web' runs without network: its configuration asks for it/);
  });

  it('is read from the entry as true or false, and refused on an http server', () => {
    expect(readMcpServers({ web: { command: 'npx', network: true } }).servers?.web).toMatchObject({ type: 'stdio', network: true });
    expect(readMcpServers({ web: { command: 'npx' } }).servers?.web).not.toHaveProperty('network');
    expect(readMcpServers({ web: { command: 'npx', network: 'yes' } }).problems).toEqual([
      "MCP server 'web': 'network' must be true or false",
    ]);
    expect(readMcpServers({ web: { url: 'https://example.test/mcp', network: true } }).problems[0]).toMatch(
      /'network' applies to stdio servers only/,
    );
  });
});
