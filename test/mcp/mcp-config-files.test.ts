/**
 * Reading the MCP servers users configured for other tools: `.mcp.json`, `.vscode/mcp.json` (JSON with
 * comments, inputs, `${workspaceFolder}`), the user's file; one bad entry refuses only itself, with why; a
 * file is read through the confined reader (a link out of the workspace is refused); precedence by file.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonc } from '../../src/engine/mcp/jsonc-text.js';
import { catalogServer, readMcpCatalog } from '../../src/engine/mcp/mcp-catalog.js';
import { readWorkspaceMcpFiles, userMcpConfigPath } from '../../src/engine/mcp/mcp-config-files.js';
import { withInputs } from '../../src/engine/mcp/mcp-inputs.js';
import { mcpFileItems } from '../../src/engine/team/folder-mcp-items.js';

let root: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agent-team-mcp-config-'));
  outside = await mkdtemp(path.join(tmpdir(), 'agent-team-mcp-outside-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function write(relative: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), text);
}

describe('JSON with comments', () => {
  it('drops comments and trailing commas outside strings, keeps them inside, and still refuses what is not JSON', () => {
    expect(parseJsonc('{\n // a\n "a": "x // y /* z */", /* b */ "list": [1, 2,],\n}')).toEqual({ a: 'x // y /* z */', list: [1, 2] });
    expect(parseJsonc('{"quote": "a \\" , }"}')).toEqual({ quote: 'a " , }' });
    expect(() => parseJsonc('{"a": 1 /* open')).toThrow(/not closed/);
    expect(() => parseJsonc("{'a': 1}")).toThrow();
  });
});

describe('the configuration files', () => {
  it("reads .mcp.json's mcpServers and .vscode/mcp.json's servers, with ${workspaceFolder} and inputs kept for later", async () => {
    await write('.mcp.json', JSON.stringify({ mcpServers: { calc: { command: 'node', args: ['server.js'], env: { MODE: 'fast' } } } }));
    await write(
      '.vscode/mcp.json',
      '{ "inputs": [{"type": "promptString", "id": "key", "description": "API key", "password": true}],\n "servers": { "files": { "type": "stdio", "command": "node", "args": ["${workspaceFolder}/fs.js"], "cwd": "${workspaceFolder}" },\n "api": { "type": "http", "url": "https://api.example.test/mcp", "headers": { "Authorization": "Bearer ${input:key}" } }, } }',
    );
    const [claude, vscode] = await readWorkspaceMcpFiles(root);
    expect(claude).toMatchObject({
      file: '.mcp.json',
      origin: 'workspace',
      servers: [{ name: 'calc', config: { type: 'stdio', command: 'node', args: ['server.js'], env: { MODE: 'fast' } }, inputs: [] }],
    });
    const [files, api] = vscode!.servers;
    expect(files!.config).toMatchObject({ type: 'stdio', args: [`${root}/fs.js`] });
    expect(api!.inputs).toEqual([{ id: 'key', description: 'API key', password: true }]);
    expect(api!.config).toMatchObject({ headers: { Authorization: 'Bearer ${input:key}' } });
    expect(withInputs(api!.config!, new Map([['key', 's3cret']]))).toMatchObject({ headers: { Authorization: 'Bearer s3cret' } });
  });

  it('refuses only the entry that cannot work, saying why', async () => {
    const servers = {
      sse: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
      envFile: { command: 'node', envFile: '${workspaceFolder}/.env' },
      environment: { command: 'node', env: { TOKEN: '${env:GITHUB_TOKEN}' } },
      claudeVariable: { type: 'http', url: 'https://x.example.test/${API_PATH}' },
      undeclared: { command: 'node', args: ['${input:nope}'] },
      elsewhere: { command: 'node', cwd: '/srv' },
      noCommand: { args: ['x'] },
      'bad name!': { command: 'node' },
      good: { command: 'node' },
    };
    await write('.vscode/mcp.json', JSON.stringify({ servers }));
    const [vscode] = await readWorkspaceMcpFiles(root);
    const refused = Object.fromEntries(vscode!.servers.map((server) => [server.name, server.refused]));
    expect(refused.sse).toContain('SSE transport');
    expect(refused.envFile).toContain("'envFile'");
    expect(refused.environment).toContain('uses ${env:GITHUB_TOKEN}, which agent-team does not expand');
    expect(refused.claudeVariable).toContain('uses ${API_PATH}');
    expect(refused.undeclared).toContain("names the input 'nope'");
    expect(refused.elsewhere).toContain("'cwd' other than the workspace folder");
    expect(refused.noCommand).toContain("'command' must be the program to start");
    expect(refused['bad name!']).toContain('must be 1 to 32 letters');
    expect(refused.good).toBeUndefined();
    // The folder's trust lists what would run: the good one only.
    expect((await mcpFileItems({ root, roles: [] })).items.map((item) => item.what)).toEqual(["MCP server 'good' of .vscode/mcp.json"]);
  });

  it('a file that is a link out of the workspace, or not JSON, is not read, and says why', async () => {
    await writeFile(path.join(outside, 'servers.json'), JSON.stringify({ mcpServers: { stolen: { command: 'node' } } }));
    await symlink(path.join(outside, 'servers.json'), path.join(root, '.mcp.json'));
    await write('.vscode/mcp.json', '{ "servers": ');
    const files = await readWorkspaceMcpFiles(root);
    expect(files.map((file) => file.servers.length)).toEqual([0, 0]);
    expect(files[0]!.problem).toContain('.mcp.json was not read: it is (or lies under) a symbolic link that leads outside the workspace');
    expect(files[1]!.problem).toContain('.vscode/mcp.json is not valid JSON');
    expect((await mcpFileItems({ root, roles: [] })).problems).toHaveLength(2);
  });

  it("the user's file is $XDG_CONFIG_HOME/agent-team/mcp.json, else ~/.config/agent-team/mcp.json", () => {
    expect(userMcpConfigPath('/home/ada', { XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/agent-team/mcp.json');
    expect(userMcpConfigPath('/home/ada', { XDG_CONFIG_HOME: 'relative' })).toBe('/home/ada/.config/agent-team/mcp.json');
    expect(userMcpConfigPath('/home/ada', {})).toBe('/home/ada/.config/agent-team/mcp.json');
  });
});

describe('the catalog', () => {
  it(".mcp.json before .vscode/mcp.json before the user's file; the later one of a name is shadowed", async () => {
    await write('.mcp.json', JSON.stringify({ mcpServers: { calc: { command: 'first' } } }));
    await write(
      '.vscode/mcp.json',
      JSON.stringify({ servers: { calc: { command: 'second' }, web: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }),
    );
    await writeFile(
      path.join(outside, 'mcp.json'),
      JSON.stringify({ mcpServers: { web: { command: 'mine' }, notes: { command: 'notes' } } }),
    );
    const catalog = await readMcpCatalog({
      root,
      userFiles: [{ path: path.join(outside, 'mcp.json'), shown: '~/.config/agent-team/mcp.json' }],
    });
    expect(catalog.entries.map((entry) => [entry.name, entry.file, entry.shadowedBy ?? null])).toEqual([
      ['calc', '.mcp.json', null],
      ['calc', '.vscode/mcp.json', '.mcp.json'],
      ['web', '.vscode/mcp.json', null],
      ['web', '~/.config/agent-team/mcp.json', '.vscode/mcp.json'],
      ['notes', '~/.config/agent-team/mcp.json', null],
    ]);
    expect(catalogServer(catalog, 'calc')?.config).toMatchObject({ command: 'first' });
    expect(catalogServer(catalog, 'notes')?.origin).toBe('user');
    expect(catalogServer(catalog, 'missing')).toBeUndefined();
  });

  it("reads a user's file in VS Code's shape too (its user mcp.json: servers, inputs, comments)", async () => {
    await writeFile(
      path.join(outside, 'mcp.json'),
      '{ // VS Code\n "servers": { "gh": { "type": "http", "url": "https://api.example.test/mcp", "headers": { "Authorization": "${input:pat}" } } },\n "inputs": [{ "type": "promptString", "id": "pat", "description": "Token", "password": true }] }',
    );
    const catalog = await readMcpCatalog({ root, userFiles: [{ path: path.join(outside, 'mcp.json'), shown: 'VS Code user mcp.json' }] });
    expect(catalog.problems).toEqual([]);
    expect(catalogServer(catalog, 'gh')).toMatchObject({
      origin: 'user',
      file: 'VS Code user mcp.json',
      inputs: [{ id: 'pat', password: true }],
    });
  });
});
