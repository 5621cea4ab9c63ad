/**
 * `a2a_url` and `a2a_auth_env` in role files, read strictly with file:line diagnostics; a token written in
 * the file is refused without being repeated; and the CLI's `serve --a2a` arguments.
 */
import { describe, expect, it } from 'vitest';
import { AgentCard } from '@a2a-js/sdk';
import { artifactUpdate, textPart } from '../../src/engine/a2a/a2a-objects.js';
import { chooseInterface, describeOffer, offeredInterfaces } from '../../src/engine/a2a/remote-card.js';
import { parseArguments, UsageError } from '../../src/cli/arguments.js';
import { readUsage, RemoteProgress } from '../../src/engine/a2a/remote-progress.js';
import { formatRoleDiagnostic } from '../../src/engine/roles/format-diagnostic.js';
import { parseRoleFile } from '../../src/engine/roles/parse-role-file.js';
import { roleFileLocations } from '../../src/engine/roles/role-file-locations.js';
import { defaultCapabilitySettings } from '../../src/engine/team/capabilities.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const [ours, claude] = roleFileLocations;
const parse = (header: string, body = '', location = ours!) =>
  parseRoleFile({
    knownTools: knownToolNames,
    path: `${location.directory}/remote${location.suffix}`,
    fileName: `remote${location.suffix}`,
    text: `---\nname: remote\ndescription: Runs remotely.\n${header}\n---\n${body}`,
    location,
  });

describe('remote roles in role files', () => {
  it('reads a2a_url and a2a_auth_env; the body is optional; local-only fields are ignored with a warning', () => {
    const { role, diagnostics } = parse(
      'a2a_url: http://127.0.0.1:8083/api/a2a/kagent/k8s-agent/\na2a_auth_env: KAGENT_TOKEN\ntools: [Read]\nmodel: sonnet',
    );
    expect(role).toMatchObject({
      name: 'remote',
      a2aUrl: 'http://127.0.0.1:8083/api/a2a/kagent/k8s-agent/',
      a2aAuthEnv: 'KAGENT_TOKEN',
      tools: [],
      mode: 'single_turn',
      instruction: '',
    });
    expect(role?.model).toBeUndefined();
    expect(diagnostics.map(formatRoleDiagnostic)).toEqual([
      ".agent-team/agents/remote.md:6: warning: 'tools' is ignored: the role runs on the remote agent at 'a2a_url', which has its own model, tools and way of working",
      ".agent-team/agents/remote.md:7: warning: 'model' is ignored: the role runs on the remote agent at 'a2a_url', which has its own model, tools and way of working",
    ]);
  });

  it('refuses a token written in the file, on its line, without repeating it', () => {
    const { role, diagnostics } = parse('a2a_url: https://agents.example.test/a2a/\na2a_token: s3cr3t-t0ken-value');
    expect(role).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(formatRoleDiagnostic(diagnostics[0]!)).toMatch(
      /^\.agent-team\/agents\/remote\.md:5: error: 'a2a_token' would put a credential in the role file.*a2a_auth_env: KAGENT_TOKEN/,
    );
    expect(JSON.stringify(diagnostics)).not.toContain('s3cr3t');
  });

  it('refuses a token given where the variable name belongs, and credentials in the address', () => {
    const asName = parse('a2a_url: https://agents.example.test/a2a/\na2a_auth_env: "Bearer eyJhbGciOiJIUzI1NiJ9.payload"');
    expect(asName.diagnostics).toEqual([
      {
        path: '.agent-team/agents/remote.md',
        severity: 'error',
        line: 5,
        message: expect.stringContaining('must be the name of an environment variable that holds the token'),
      },
    ]);
    expect(JSON.stringify(asName.diagnostics)).not.toContain('eyJhbGci');
    expect(parse('a2a_url: https://user:pw@agents.example.test/').diagnostics[0]!.message).toContain(
      'must not carry a user name or password',
    );
    expect(parse('a2a_url: https://agents.example.test/?token=abc').diagnostics[0]!.message).toContain(
      'must not carry a credential in its query',
    );
    expect(parse('a2a_url: https://agents.example.test/\na2a_auth_env: OPENAI_API_KEY').diagnostics[0]!.message).toContain(
      'may not name OPENAI_API_KEY',
    );
  });

  it('says what is wrong with the address or a lone a2a_auth_env', () => {
    expect(parse('a2a_url: ftp://agents.example.test/').diagnostics[0]).toMatchObject({
      line: 4,
      message: "'a2a_url' must use http or https, not ftp",
    });
    expect(parse('a2a_url: not a url').diagnostics[0]!.message).toContain('is not a valid address');
    expect(parse('a2a_auth_env: KAGENT_TOKEN', 'Local body.').diagnostics[0]).toMatchObject({
      line: 4,
      severity: 'error',
      message: expect.stringContaining("needs 'a2a_url'"),
    });
  });

  it('is read from our own format only: a .claude/agents file runs locally as Claude Code would run it', () => {
    const { role } = parse('a2a_url: http://127.0.0.1:8083/', 'Local instructions.', claude);
    expect(role?.a2aUrl).toBeUndefined();
  });
});

describe('what a remote agent sends', () => {
  it('reads usage in the shapes A2A servers use', () => {
    expect(readUsage({ usage: { inputTokens: 3, outputTokens: 4 } })).toEqual({ inputTokens: 3, outputTokens: 4 });
    expect(readUsage({ kagent_usage_metadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 } })).toEqual({
      inputTokens: 10,
      outputTokens: 2,
    });
    expect(readUsage({ usage: { prompt_tokens: 5, completion_tokens: 1 } })).toEqual({ inputTokens: 5, outputTokens: 1 });
    expect(readUsage({ note: 'no usage here' })).toBeUndefined();
  });

  it('streams appended chunks once, and a final whole artifact adds only what was not streamed', () => {
    const progress = new RemoteProgress();
    const chunk = (text: string, append: boolean) =>
      progress.read({
        payload: {
          $case: 'artifactUpdate',
          value: artifactUpdate('t', 'c', { artifactId: 'a', parts: [textPart(text)], append, lastChunk: false }),
        },
      });
    expect(chunk('Hello', false).text).toBe('Hello');
    expect(chunk(', world', true).text).toBe(', world');
    expect(chunk('Hello, world.', false).text).toBe('.');
    expect(chunk('Something else', false).text).toBeUndefined();
    expect(progress.output).toBe('Something else');
  });

  it("reads chunks whose 'append' a translation lost (the SDK's 0.3 HTTP+JSON client) as appended, and a whole resend once", () => {
    const progress = new RemoteProgress(true);
    const chunk = (text: string, lastChunk: boolean) =>
      progress.read({
        payload: {
          $case: 'artifactUpdate',
          value: artifactUpdate('t', 'c', { artifactId: 'a', parts: [textPart(text)], append: false, lastChunk }),
        },
      });
    expect(chunk('The answer ', false).text).toBe('The answer ');
    expect(chunk('is 42.', false).text).toBe('is 42.');
    expect(chunk('The answer is 42.', true).text).toBeUndefined();
    expect(progress.output).toBe('The answer is 42.');
    // After a last chunk, a new whole text replaces it, as `append: false` says.
    expect(chunk('Corrected.', true).text).toBeUndefined();
    expect(progress.output).toBe('Corrected.');
  });

  it("leaves the agent's marked thinking out of the answer, and counts usage sent under two names once", () => {
    const progress = new RemoteProgress();
    const update = progress.read({
      payload: {
        $case: 'artifactUpdate',
        value: artifactUpdate('t', 'c', {
          artifactId: 'a',
          parts: [textPart('Let me look. ', { adk_thought: true }), textPart('42')],
          append: false,
          lastChunk: true,
          metadata: { usage: { inputTokens: 7, outputTokens: 2 }, adk_usage_metadata: { promptTokenCount: 7, candidatesTokenCount: 2 } },
        }),
      },
    });
    expect(update).toEqual({ text: '42', usage: { inputTokens: 7, outputTokens: 2 } });
    expect(progress.output).toBe('42');
  });
});

describe('choosing how to talk to a remote agent', () => {
  const card = (interfaces: Array<{ url: string; protocolBinding: string; protocolVersion: string }>) =>
    AgentCard.fromJSON({ name: 'remote', supportedInterfaces: interfaces });

  it("takes 1.0 where the card offers it, else 0.3, in the order the card prefers, on a2a_url's host", () => {
    const both = chooseInterface(
      card([
        { url: 'http://svc.cluster:80/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
        { url: 'http://svc.cluster:80/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ]),
      'http://127.0.0.1:8083/',
    );
    expect(typeof both === 'object' && [both.binding, both.version, both.url]).toEqual(['JSONRPC', '1.0', 'http://127.0.0.1:8083/rpc']);
    const rest = chooseInterface(
      card([
        { url: 'http://localhost:8000/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: 'http://localhost:8000/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ]),
      'http://127.0.0.1:9/',
    );
    expect(typeof rest === 'object' && [rest.binding, rest.url, rest.card.supportedInterfaces.length]).toEqual([
      'HTTP+JSON',
      'http://127.0.0.1:9/rest',
      1,
    ]);
    const legacy = chooseInterface(
      card([{ url: 'http://localhost:8000/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' }]),
      'http://127.0.0.1:9/',
    );
    expect(typeof legacy === 'object' && [legacy.generation, legacy.url]).toEqual(['0.3', 'http://127.0.0.1:9/jsonrpc']);
  });

  it('says why a card cannot be used, and what it offers', () => {
    const grpcOnly = card([{ url: 'http://h:1/', protocolBinding: 'GRPC', protocolVersion: '1.0' }]);
    expect(chooseInterface(grpcOnly, 'http://h:1/')).toMatch(/no interface we can use/);
    const future = card([{ url: 'http://h:1/', protocolBinding: 'JSONRPC', protocolVersion: '2.0' }]);
    expect(chooseInterface(future, 'http://h:1/')).toMatch(/no protocol version we speak/);
    expect(describeOffer(offeredInterfaces(future))).toBe('JSON-RPC 2.0 at http://h:1/');
    expect(describeOffer([])).toBe('no interface at all');
  });
});

describe('agent-team serve --a2a arguments', () => {
  it('takes --a2a, --port, --host, --auth-token-env, the model options and how commands run', () => {
    expect(parseArguments(['serve', '--a2a', '--port', '0', '--no-auth', '--provider', 'openai'], '/work')).toEqual({
      command: 'serve',
      protocol: 'a2a',
      port: 0,
      host: '127.0.0.1',
      noAuth: true,
      workspace: '/work',
      provider: 'openai',
      model: undefined,
      baseUrl: undefined,
      allowCommands: [],
      noSandbox: false,
      noHooks: false,
      trust: false,
      allowNetwork: false,
      allowNetworkCommands: [],
      passEnvironment: [],
      allowDomains: [],
      instructionFiles: ['agents', 'claude', 'copilot', 'user'],
      settings: defaultCapabilitySettings(),
    });
    expect(
      parseArguments(
        ['serve', '--a2a', '--port', '0', '--no-auth', '--allow-command', 'npm test', '--no-sandbox', '--allow-network', '--no-hooks'],
        '/work',
      ),
    ).toMatchObject({ allowCommands: ['npm test'], noSandbox: true, allowNetwork: true, noHooks: true });
    expect(parseArguments(['serve', '--a2a', '--port', '0', '--host', '0.0.0.0', '--auth-token-env', 'A2A_TOKEN'], '/work')).toMatchObject({
      host: '0.0.0.0',
      authTokenEnv: 'A2A_TOKEN',
      noAuth: false,
    });
    expect(parseArguments(['serve', '--a2a', '--port', '0', '--auth-token-env', 'A2A_TOKEN'], '/work')).toMatchObject({
      host: '127.0.0.1',
      authTokenEnv: 'A2A_TOKEN',
      noAuth: false,
    });
  });

  it('needs a token or --no-auth, even on loopback, and not both', () => {
    const neither = () => parseArguments(['serve', '--a2a', '--port', '0'], '/work');
    expect(neither).toThrow(UsageError);
    expect(neither).toThrow('"serve --a2a" needs --auth-token-env <NAME> (the variable holding the token clients must send) or --no-auth');
    expect(() => parseArguments(['serve', '--a2a', '--port', '0', '--no-auth', '--auth-token-env', 'A2A_TOKEN'], '/work')).toThrow(
      '--no-auth and --auth-token-env cannot be used together',
    );
    // Beyond loopback a token is required: --no-auth does not open the server to other machines.
    expect(() => parseArguments(['serve', '--a2a', '--port', '0', '--no-auth', '--host', '0.0.0.0'], '/work')).toThrow(
      'it needs --auth-token-env <NAME>',
    );
    expect(() => parseArguments(['run', '--no-auth', 'task'], '/work')).toThrow(
      '--a2a, --port, --host, --auth-token-env and --no-auth belong to "serve"',
    );
    expect(() => parseArguments(['mcp', '--no-auth'], '/work')).toThrow('"mcp" takes only');
  });

  it('refuses what it cannot serve', () => {
    expect(() => parseArguments(['serve', '--port', '8080'], '/work')).toThrow(
      new UsageError('"serve" needs the protocol to serve: agent-team serve --a2a --port <n>'),
    );
    expect(() => parseArguments(['serve', '--a2a'], '/work')).toThrow('needs --port');
    expect(() => parseArguments(['serve', '--a2a', '--port', '70000'], '/work')).toThrow('--port must be a whole number from 0 to 65535');
    expect(() => parseArguments(['serve', '--a2a', '--port', '1', '--json'], '/work')).toThrow('"serve" takes only');
    expect(() => parseArguments(['run', '--a2a', 'task'], '/work')).toThrow(
      '--a2a, --port, --host, --auth-token-env and --no-auth belong to "serve"',
    );
    expect(() => parseArguments(['serve', '--a2a', '--port', '1', '--host', '10.0.0.5'], '/work')).toThrow(
      'it needs --auth-token-env <NAME>',
    );
    // Another 127.x address would answer nothing: the Host check knows 127.0.0.1, ::1 and localhost only.
    expect(() => parseArguments(['serve', '--a2a', '--port', '1', '--host', '127.0.0.5'], '/work')).toThrow(
      'it needs --auth-token-env <NAME>',
    );
    expect(parseArguments(['serve', '--a2a', '--port', '1', '--host', 'localhost', '--no-auth'], '/work')).toMatchObject({
      host: 'localhost',
    });
    expect(() => parseArguments(['serve', '--a2a', '--port', '1', '--auth-token-env', 'not a name'], '/work')).toThrow(
      'names an environment variable',
    );
  });
});
