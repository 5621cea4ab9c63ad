/**
 * The run under real structure, through the CLI over the real SDKs and the mock provider: nested
 * foreground delegation at limits 4 and 1, background subagents that overlap, the settings flags, and a
 * run that always ends with exactly one `run-end` (completed, failed, over budget).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeferred } from '../../src/engine/util/deferred.js';
import {
  type MockProtocol,
  delayed,
  httpError,
  rateLimited,
  serverError,
  startMockProviderServer,
  textTurn,
  toolCallTurn,
} from '../support/mock-provider/index.js';
import { type CliEvent, agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n' });

function runCli(protocol: MockProtocol, args: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(world.cliPath, ['run', '--json', '--workspace', world.workspace, ...provider.args, ...args], provider.env);
}

function expectOneRunEnd(events: CliEvent[]): CliEvent {
  const runEnds = events.filter((event) => event.type === 'run-end');
  expect(runEnds).toHaveLength(1);
  expect(events.at(-1)).toBe(runEnds[0]);
  return runEnds[0];
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run under nested delegation (%s)', (protocol) => {
  it.each([4, 1])('three foreground reviewers that each ask a researcher complete at --max-concurrent %i', async (limit) => {
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      if (agent === 'researcher') return textTurn('Researched: fine.');
      if (agent === 'reviewer') {
        if (priorTurns(request) === 0)
          return toolCallTurn([
            { name: 'Agent', input: { subagent_type: 'researcher', description: 'Check a finding', prompt: 'Check parser.ts:2.' } },
          ]);
        return textTurn('Review done, researcher agrees.');
      }
      if (priorTurns(request) === 0) {
        return toolCallTurn(
          ['dates', 'numbers', 'errors'].map((topic) => ({
            name: 'Agent',
            input: { subagent_type: 'reviewer', description: `Review ${topic}`, prompt: `How does parser.ts handle ${topic}?` },
          })),
        );
      }
      return textTurn('All three researched and reviewed.');
    });
    const { code, stdout, stderr } = await runCli(protocol, ['--max-concurrent', String(limit), 'Research the parser']).exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    const starts = events.filter((event) => event.type === 'task-start');
    expect(starts.map((event) => event.role).sort()).toEqual([
      'coordinator',
      'researcher',
      'researcher',
      'researcher',
      'reviewer',
      'reviewer',
      'reviewer',
    ]);
    // Every reviewer waited for its researcher in the foreground: none was moved to the background.
    expect(starts.every((event) => event.background === false)).toBe(true);
    expect(events.filter((event) => event.type === 'task-background')).toEqual([]);
    expect(events.filter((event) => event.type === 'task-end').map((event) => event.status)).toEqual(Array(7).fill('completed'));
    expect(expectOneRunEnd(events)).toMatchObject({ status: 'completed', output: 'All three researched and reviewed.' });
  });

  it('four background researchers run at the same time at the default limit of 4', async () => {
    // Each researcher's answer is held until all four have asked the model: if the waiting coordinator
    // kept a slot, only three could run and this run would never end.
    const allFourAsked = createDeferred<void>();
    let researcherRequests = 0;
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      if (agent === 'researcher') {
        if (++researcherRequests === 4) allFourAsked.resolve();
        return delayed(textTurn(`Finding from ${request.lastMessageText}`), allFourAsked.promise);
      }
      if (priorTurns(request) === 0) {
        return toolCallTurn(
          [1, 2, 3, 4].map((part) => ({
            name: 'Agent',
            input: { subagent_type: 'researcher', description: `Part ${part}`, prompt: `part ${part}`, run_in_background: true },
          })),
        );
      }
      if (request.lastMessageText.includes('All background tasks you started have now ended'))
        return textTurn('Final answer with all four parts.');
      return textTurn('Started four researchers.');
    });
    const { code, stdout } = await runCli(protocol, ['Research in four parts']).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-end' && event.status === 'completed')).toHaveLength(5);
    expect(expectOneRunEnd(events)).toMatchObject({ status: 'completed', output: 'Final answer with all four parts.' });
  });
});

describe('agent-team run: the run always ends with one run-end', () => {
  it('a failed run ends with run-end failed, exit 1, and the provider error', async () => {
    world.server.respondWith(() => serverError(400, { message: 'The model refused the request shape.' }));
    const { code, stdout } = await runCli('anthropic', ['Do something']).exited;
    expect(code).toBe(1);
    const runEnd = expectOneRunEnd(parseEvents(stdout));
    expect(runEnd).toMatchObject({ status: 'failed' });
    expect(String(runEnd.error)).toContain('The model refused the request shape.');
  });

  it('a provider that redirects fails the run at once, saying so, and the redirect is not followed', async () => {
    // Followed, the request (and its key) would arrive again at the address the redirect names.
    world.server.respondWith((request) =>
      request.path.endsWith('/redirected')
        ? textTurn('followed')
        : httpError(308, { headers: { location: `${world.server.baseUrl}/redirected` } }),
    );
    const { code, stdout } = await runCli('anthropic', ['Do something']).exited;
    expect(code).toBe(1);
    const runEnd = expectOneRunEnd(parseEvents(stdout));
    expect(runEnd).toMatchObject({ status: 'failed' });
    expect(String(runEnd.error)).toContain('answered with a redirect, which Agent Team does not follow');
    expect(world.server.requests).toHaveLength(1);
  });

  it.each<MockProtocol>(['anthropic', 'openai'])(
    'talks to %s over HTTPS, trusting the certificates Node is told to trust (NODE_EXTRA_CA_CERTS)',
    async (protocol) => {
      const tls = path.join(import.meta.dirname, '../support/tls');
      const certificate = path.join(tls, 'localhost-cert.pem');
      const server = await startMockProviderServer({
        tls: { key: await readFile(path.join(tls, 'localhost-key.pem'), 'utf8'), cert: await readFile(certificate, 'utf8') },
      });
      try {
        server.respondWith(() => textTurn('Answered over TLS.'));
        const provider = providerEnvironment(protocol, server.baseUrl);
        const run = (env: Record<string, string>) =>
          startCli(world.cliPath, ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Say hello'], {
            ...provider.env,
            ...env,
          }).exited;
        const untrusted = await run({});
        expect(untrusted.code).toBe(1);
        // Refused by TLS before any request was made, and not tried again: the same certificate would come back.
        expect(server.requests).toHaveLength(0);
        expect(String(expectOneRunEnd(parseEvents(untrusted.stdout)).error)).toMatch(
          /cannot connect to https:\/\/127\.0\.0\.1:\d+(\/v1)?: its TLS certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)\. If the server is yours, .* point NODE_EXTRA_CA_CERTS at the certificate that signed it\./,
        );
        const trusted = await run({ NODE_EXTRA_CA_CERTS: certificate });
        expect(trusted.code).toBe(0);
        expect(expectOneRunEnd(parseEvents(trusted.stdout))).toMatchObject({ status: 'completed', output: 'Answered over TLS.' });
        expect(server.requests.length).toBeGreaterThanOrEqual(1);
      } finally {
        await server.close();
      }
    },
  );

  it('--budget-tokens stops the tree when spent: run-end stopped with reason budget, exit 1', async () => {
    world.server.respondWith((request) => {
      if (agentOf(request) === 'researcher') return textTurn('A long finding that costs tokens.');
      if (priorTurns(request) === 0)
        return toolCallTurn([{ name: 'Agent', input: { subagent_type: 'researcher', description: 'Look', prompt: 'Look around.' } }]);
      return textTurn('Done.');
    });
    const { code, stdout } = await runCli('openai', ['--budget-tokens', '20', 'Look around']).exited;
    expect(code).toBe(1);
    const events = parseEvents(stdout);
    const runEnd = expectOneRunEnd(events);
    expect(runEnd).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget' } });
    expect(String((runEnd.stopReason as { detail: string }).detail)).toMatch(/over the budget of 20/);
    expect(events.filter((event) => event.type === 'task-end').every((event) => event.status === 'stopped')).toBe(true);
  });
});

describe('agent-team run: the settings flags', () => {
  it('--max-depth 0 offers the coordinator no Agent tool', async () => {
    world.server.respondWith(() => textTurn('I looked myself.'));
    const { code } = await runCli('anthropic', ['--max-depth', '0', 'Look']).exited;
    expect(code).toBe(0);
    expect(world.server.requests[0].toolNames).not.toContain('Agent');
    expect(world.server.requests[0].toolNames).toContain('Read');
  });

  it('--auto-background-seconds 0 moves a foreground subagent to the background at once', async () => {
    const release = createDeferred<void>();
    world.server.respondWith((request) => {
      if (agentOf(request) === 'researcher') return delayed(textTurn('Slow finding.'), release.promise);
      if (priorTurns(request) === 0)
        return toolCallTurn([{ name: 'Agent', input: { subagent_type: 'researcher', description: 'Look', prompt: 'Look.' } }]);
      if (priorTurns(request) === 1) {
        release.resolve();
        return textTurn('It moved to the background.');
      }
      return textTurn('Final with the finding.');
    });
    const { code, stdout } = await runCli('anthropic', ['--auto-background-seconds', '0', 'Look']).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.some((event) => event.type === 'task-background')).toBe(true);
    const coordinatorSecond = world.server.requests.filter((request) => agentOf(request) === 'coordinator')[1];
    expect(coordinatorSecond.lastMessageText).toContain('moved to the background');
  });

  it.each([
    [['--max-concurrent', '0'], '--max-concurrent must be a whole number from 1 to 32, not "0"'],
    [['--max-depth', 'deep'], '--max-depth must be a whole number from 0 to 10, not "deep"'],
    [['--budget-tokens', '-5'], '--budget-tokens must be a whole number from 1'],
    [['--budget-tokens=1.5'], '--budget-tokens must be a whole number from 1'],
    [['--auto-background-seconds', 'soon'], '--auto-background-seconds must be zero or more seconds, not "soon"'],
  ])('%j is a usage error (exit 2)', async (flags, message) => {
    const { code, stderr } = await startCli(world.cliPath, ['run', ...flags, 'task'], {}).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe('agent-team run --apply', () => {
  it('writes nothing when the run did not complete, and says why', async () => {
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) {
        return toolCallTurn([{ name: 'Write', input: { file_path: 'parser.ts', content: 'half of a change\n' } }]);
      }
      return serverError(400, { message: 'Broken turn.' });
    });
    const { code, stdout, stderr } = await runCli('anthropic', ['--agent', 'refactorer', '--apply', 'Rewrite the parser']).exited;
    expect(code).toBe(1);
    expect(await readFile(path.join(world.workspace, 'parser.ts'), 'utf8')).toContain('JSON.parse(text)');
    expect(stderr).toContain('--apply: nothing was written because the run did not complete (it failed');
    expect(expectOneRunEnd(parseEvents(stdout))).toMatchObject({ status: 'failed' });
  });

  it('a read-only role run directly cannot reach an editing role: nothing is written', async () => {
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      if (agent === 'refactorer') return toolCallTurn([{ name: 'Write', input: { file_path: 'parser.ts', content: 'escalated\n' } }]);
      if (priorTurns(request) === 0)
        return toolCallTurn([
          { name: 'Agent', input: { subagent_type: 'refactorer', description: 'Fix it', prompt: 'Rewrite parser.ts' } },
        ]);
      return textTurn('I may not edit.');
    });
    const { code, stdout } = await runCli('openai', ['--agent', 'researcher', '--apply', 'Fix the parser']).exited;
    expect(code).toBe(0);
    expect(await readFile(path.join(world.workspace, 'parser.ts'), 'utf8')).toContain('JSON.parse(text)');
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-start').map((event) => event.role)).toEqual(['researcher']);
    expect(world.server.requests[1].lastMessageText).toContain('You may not hand work to "refactorer"');
    expect(world.server.requests[0].toolNames).toContain('Agent');
  });

  it('--delegation-reach any lets the user lift the rule', async () => {
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      if (agent === 'refactorer') {
        if (priorTurns(request) === 0) return toolCallTurn([{ name: 'Write', input: { file_path: 'parser.ts', content: 'rewritten\n' } }]);
        return textTurn('Rewrote it.');
      }
      if (priorTurns(request) === 0)
        return toolCallTurn([
          { name: 'Agent', input: { subagent_type: 'refactorer', description: 'Fix it', prompt: 'Rewrite parser.ts' } },
        ]);
      return textTurn('Delegated the fix.');
    });
    const { code } = await runCli('openai', ['--agent', 'researcher', '--delegation-reach', 'any', '--apply', 'Fix the parser']).exited;
    expect(code).toBe(0);
    expect(await readFile(path.join(world.workspace, 'parser.ts'), 'utf8')).toBe('rewritten\n');
  });
});

describe('agent-team run: waits the run depends on keep it alive', () => {
  it('a retry wait (429 with retry-after) neither ends the process nor trips the stall guard', async () => {
    let calls = 0;
    world.server.respondWith(() =>
      ++calls === 1 ? rateLimited({ headers: { 'retry-after': '1', 'retry-after-ms': '300' } }) : textTurn('Answered after the wait.'),
    );
    const { code, stdout, stderr } = await runCli('openai', ['--agent', 'researcher', 'Look']).exited;
    expect(stderr).not.toContain('stopped making progress');
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Answered after the wait.' });
    expect(world.server.requests).toHaveLength(2);
  });
});
