/**
 * The configured servers' capability in front of the role servers' one: only servers a role's tools name,
 * only the tools named, the folder's servers held back where it is not trusted (or the server is not on the
 * list the user trusted), the first start of a folder's server asked once, inputs asked once per file and a
 * password kept as a secret, and a role's own server of the same name left to it.
 */
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/engine/agent/tool.js';
import type { AgentProfile, Capability, CapabilityTask } from '../../src/engine/capabilities/capability.js';
import {
  configuredServersCapability,
  type ConfiguredServersHost,
  type ServerUseRequest,
} from '../../src/engine/mcp/configured-servers-capability.js';
import type { CatalogEntry, McpCatalog } from '../../src/engine/mcp/mcp-catalog.js';
import { McpInputAnswers } from '../../src/engine/mcp/mcp-input-answers.js';
import type { McpServers } from '../../src/engine/roles/mcp-server-config.js';

const entry = (name: string, extra: Partial<CatalogEntry> = {}): CatalogEntry => ({
  name,
  file: '.mcp.json',
  origin: 'workspace',
  inputs: [],
  config: { type: 'stdio', command: 'node', args: [`${name}.js`], env: {} },
  ...extra,
});
const tool = (name: string): Tool => ({ name }) as Tool;

/** The role servers' capability, faked: each server it is given has the tools `add` and `echo`; it records what it was given. */
function fakeInner(): Capability & { given: Array<{ servers: McpServers; origin: AgentProfile['origin'] }> } {
  const given: Array<{ servers: McpServers; origin: AgentProfile['origin'] }> = [];
  return {
    name: 'mcp',
    given,
    grant(task) {
      const servers = task.agent.mcpServers ?? {};
      given.push({ servers, origin: task.agent.origin });
      return { tools: Object.keys(servers).flatMap((server) => [tool(`mcp__${server}__add`), tool(`mcp__${server}__echo`)]) };
    },
  };
}

function task(serverTools: string[], agent: Partial<AgentProfile> = {}): CapabilityTask & { waited: number } {
  const made = {
    taskId: 't1',
    rootId: 't1',
    waited: 0,
    agent: { role: 'calculator', tools: [], mayDelegate: false, reach: [], depth: 1, serverTools, ...agent },
    context: {
      signal: new AbortController().signal,
      waitForUser: <T>(waited: Promise<T> | (() => Promise<T>)) => {
        made.waited++;
        return typeof waited === 'function' ? waited() : waited;
      },
    },
  };
  return made as unknown as CapabilityTask & { waited: number };
}

function host(entries: CatalogEntry[], extra: Partial<ConfiguredServersHost> = {}): ConfiguredServersHost {
  const catalog: McpCatalog = { entries, problems: [] };
  return {
    catalog: async () => catalog,
    workspaceTrusted: () => true,
    howToTrust: 'run `agent-team trust`',
    itemOf: (each) => ({ key: `${each.file}:${each.name}:${JSON.stringify(each.config)}`, runs: `node ${each.name}.js` }),
    howToAnswer: 'give the value in the entry',
    answers: new McpInputAnswers(),
    ...extra,
  };
}

describe('configured MCP servers for a role that names them', () => {
  it('starts only the named servers and keeps only the named tools; a named tool the server lacks is said', async () => {
    const inner = fakeInner();
    const grant = await configuredServersCapability(inner, host([entry('calc'), entry('web'), entry('unused')])).grant(
      task(['mcp__calc__add', 'mcp__calc__nope', 'mcp__web__*']),
    );
    expect(inner.given).toEqual([{ servers: { calc: entry('calc').config, web: entry('web').config }, origin: 'workspace' }]);
    expect(grant!.tools!.map((each) => each.name)).toEqual(['mcp__calc__add', 'mcp__web__add', 'mcp__web__echo']);
    expect(grant!.notices).toEqual(["MCP server 'calc' has no tool 'nope' (the role names mcp__calc__nope)."]);
  });

  it('gives nothing to a role that names none, or whose own mcpServers entry has the name', async () => {
    const inner = fakeInner();
    const capability = configuredServersCapability(inner, host([entry('calc')]));
    expect(await capability.grant(task([]))).toBeUndefined();
    expect(
      await capability.grant(task(['mcp__calc__*'], { mcpServers: { calc: { type: 'stdio', command: 'own', args: [], env: {} } } })),
    ).toBeUndefined();
    expect(inner.given).toEqual([]);
  });

  it('an unknown, refused, untrusted or no longer trusted server starts nothing and is said', async () => {
    const inner = fakeInner();
    const entries = [
      entry('bad', { config: undefined, refused: 'uses the SSE transport' }),
      entry('changed'),
      entry('mine', { origin: 'user', file: '~/.config/agent-team/mcp.json' }),
    ];
    const untrusted = await configuredServersCapability(inner, host(entries, { workspaceTrusted: () => false })).grant(
      task(['mcp__missing__*', 'mcp__bad__*', 'mcp__changed__*', 'mcp__mine__*'], { origin: 'user' }),
    );
    expect(untrusted!.notices).toEqual([
      "MCP server 'missing' was not started: no server of that name is configured (.mcp.json, .vscode/mcp.json, or the user's MCP file).",
      "MCP server 'bad' (.mcp.json) was not started: uses the SSE transport.",
      "MCP server 'changed' (.mcp.json) was not started: this folder is not trusted (run `agent-team trust`).",
    ]);
    // The user's own server, for the user's own role, runs in an untrusted folder (through the gate, as the user's).
    expect(inner.given).toEqual([{ servers: { mine: entries[2]!.config }, origin: 'user' }]);
    // A role the folder defines does not reach the user's server (and its credentials) there.
    const foldersRole = await configuredServersCapability(fakeInner(), host(entries, { workspaceTrusted: () => false })).grant(
      task(['mcp__mine__*'], { origin: 'workspace' }),
    );
    expect(foldersRole!.notices).toEqual([
      "MCP server 'mine' (~/.config/agent-team/mcp.json) was not started: role 'calculator' is defined by this folder, which is not trusted (run `agent-team trust`).",
    ]);
    // Where it is trusted, it does, gated as the folder's.
    const trustedInner = fakeInner();
    await configuredServersCapability(trustedInner, host(entries)).grant(task(['mcp__mine__*'], { origin: 'workspace' }));
    expect(trustedInner.given).toEqual([{ servers: { mine: entries[2]!.config }, origin: 'workspace' }]);
    const changed = await configuredServersCapability(fakeInner(), host(entries, { trustsItem: (each) => each.name !== 'changed' })).grant(
      task(['mcp__changed__*']),
    );
    expect(changed!.notices).toEqual([
      "MCP server 'changed' (.mcp.json) was not started: it was added or changed since the folder was trusted (run `agent-team trust` again).",
    ]);
    expect(changed!.instructions).toContain('# Unavailable tools');
  });

  it("asks before a folder's server first starts, once per server as configured, while the task shows waiting; a no holds it back", async () => {
    const asked: ServerUseRequest[] = [];
    let answer = true;
    const inner = fakeInner();
    const capability = configuredServersCapability(
      inner,
      host([entry('calc'), entry('mine', { origin: 'user' })], { approveFirstUse: async (request) => (asked.push(request), answer) }),
    );
    const first = task(['mcp__calc__add', 'mcp__mine__add']);
    await capability.grant(first);
    await capability.grant(task(['mcp__calc__add']));
    expect(asked).toEqual([{ taskId: 't1', role: 'calculator', server: 'calc', file: '.mcp.json', runs: 'node calc.js' }]);
    expect(first.waited).toBe(1);
    answer = false;
    const other = configuredServersCapability(fakeInner(), host([entry('calc')], { approveFirstUse: async () => answer }));
    expect((await other.grant(task(['mcp__calc__add'])))!.notices).toEqual([
      "MCP server 'calc' (.mcp.json) was not started: the user did not allow it.",
    ]);
  });

  it('two tasks starting the same server at once share one question; a question its task stopped waiting for is asked again', async () => {
    let release: (yes: boolean) => void = () => {};
    let asks = 0;
    let questionPut: () => void = () => {};
    const put = new Promise<void>((resolve) => (questionPut = resolve));
    const approveFirstUse = () => {
      asks++;
      questionPut();
      return new Promise<boolean>((resolve) => (release = resolve));
    };
    const capability = configuredServersCapability(fakeInner(), host([entry('calc')], { approveFirstUse }));
    const both = Promise.all([capability.grant(task(['mcp__calc__add'])), capability.grant(task(['mcp__calc__add']))]);
    await put;
    release(true);
    const grants = await both;
    expect(asks).toBe(1);
    expect(grants.map((grant) => grant!.tools!.map((each) => each.name))).toEqual([['mcp__calc__add'], ['mcp__calc__add']]);
    // A stopped task's wait rejects: it is held back, saying so, and the next task asks anew.
    const stopped = task(['mcp__calc__add']);
    stopped.context.waitForUser = () => Promise.reject(new Error('stopped'));
    const other = configuredServersCapability(fakeInner(), host([entry('calc')], { approveFirstUse: async () => (asks++, true) }));
    expect((await other.grant(stopped))!.notices).toEqual([
      "MCP server 'calc' (.mcp.json) was not started: the question whether to start it went unanswered (the task that asked was stopped).",
    ]);
    expect((await other.grant(task(['mcp__calc__add'])))!.tools!.map((each) => each.name)).toEqual(['mcp__calc__add']);
    expect(asks).toBe(2);
  });

  it('asks for an input once per file, fills it in, and keeps a password as a secret; with nobody to ask it is held back', async () => {
    const input = { id: 'key', description: 'API key', password: true };
    const keyed = entry('api', {
      file: '.vscode/mcp.json',
      inputs: [input],
      config: { type: 'http', url: 'https://api.example.test/mcp', headers: { Authorization: 'Bearer ${input:key}' } },
    });
    const answers = new McpInputAnswers();
    let asks = 0;
    const inner = fakeInner();
    const capability = configuredServersCapability(inner, host([keyed], { answers, askInput: async () => (asks++, 's3cret-value') }));
    await capability.grant(task(['mcp__api__*']));
    await capability.grant(task(['mcp__api__*']));
    expect(asks).toBe(1);
    expect(inner.given[0]!.servers.api).toMatchObject({ headers: { Authorization: 'Bearer s3cret-value' } });
    expect(answers.secrets()).toEqual(['s3cret-value']);
    const nobody = await configuredServersCapability(fakeInner(), host([keyed])).grant(task(['mcp__api__*']));
    expect(nobody!.notices).toEqual([
      "MCP server 'api' (.vscode/mcp.json) was not started: it needs the input 'key' (API key), and nobody can be asked for it here (give the value in the entry).",
    ]);
  });
});
