/**
 * Long conversations through the CLI with the real SDKs, against a mock provider that enforces a context
 * window and answers a request past it with each provider's real context-length error: a run whose
 * conversation passes the window completes, compacted ahead of time (past 80 % of `--context-window`) or
 * after a refusal (compacted, the turn tried once more); the transcript shows "compacted: N → M tokens"
 * with the summary; the task text is in every request after a compaction; a second refusal is a clear
 * failure that keeps what was done; and `--resume` after a SIGKILL that follows a compaction goes on from
 * the compacted conversation.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, mockTokenCount, type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

// About 1,600 tokens a read, as the mock counts them (a request without reads is about 2,800).
const chapter = 'The ledger of the harbour office records every ship.\n'.repeat(110);
const world = useCliWorld({ 'ledger.md': chapter });
const task = 'Read ledger.md six times and report the count of ships (task marker 7c1e)';
const summaryText = 'SUMMARY-42: ledger.md was read; the count so far is kept.';

/** The summary request the engine sends: its own system prompt, no tools. */
function isSummaryRequest(request: RecordedRequest): boolean {
  return request.system.startsWith('You summarise the earlier part');
}

/** The coordinator reads the ledger `reads` times (one read a request), then answers. */
function readingCoordinator(reads: number, onSummary: (request: RecordedRequest) => void = () => {}) {
  let done = 0;
  return (request: RecordedRequest) => {
    if (isSummaryRequest(request)) {
      onSummary(request);
      return textTurn(summaryText);
    }
    if (agentOf(request) !== 'coordinator') return textTurn('unexpected');
    done += 1;
    return done <= reads ? toolCallTurn([{ name: 'Read', input: { file_path: 'ledger.md' } }]) : textTurn('There are many ships.');
  };
}

function coordinatorRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => agentOf(request) === 'coordinator' && !request.refusedAsTooLong);
}

function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body);
}

describe.each<MockProtocol>(['anthropic', 'openai'])('compaction through the CLI (%s)', (protocol) => {
  const base = () => {
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    return { args: ['run', '--json', '--workspace', world.workspace, ...provider.args], env: provider.env };
  };

  it('compacts past 80 % of the window and completes; the transcript shows it; the task text stays in every request', async () => {
    world.server.enforceContextWindow(10_000);
    world.server.respondWith(readingCoordinator(6));
    const { args, env } = base();
    const run = await startCli(world.cliPath, [...args, '--context-window', '10000', task], env).exited;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = parseEvents(run.stdout);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'There are many ships.' });
    // Never past the window: compacted ahead of time.
    expect(world.server.requests.some((request) => request.refusedAsTooLong)).toBe(false);
    const compactions = events.filter((event) => event.type === 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    for (const compaction of compactions) {
      expect(compaction).toMatchObject({ taskId: 't1' });
      expect(compaction.afterTokens as number).toBeLessThan(compaction.beforeTokens as number);
      expect(compaction.beforeTokens as number).toBeGreaterThanOrEqual(8000);
    }
    // The meter: after each request, with the window.
    const contexts = events.filter((event) => event.type === 'context');
    expect(contexts.length).toBeGreaterThanOrEqual(6);
    expect(contexts[0]).toMatchObject({ taskId: 't1', windowTokens: 10_000 });
    expect(contexts[0]!.usedTokens).toBe(mockTokenCount(world.server.requests[0]!.body));
    // The transcript says so, with the summary.
    const notice = events.find((event) => event.type === 'notice' && String(event.text).startsWith('compacted: '));
    expect(notice?.text).toMatch(/^compacted: \d+ → \d+ tokens\n\nSUMMARY-42/);
    // The summary request was the task's own model's, and was told the task.
    const summaries = world.server.requests.filter(isSummaryRequest);
    expect(summaries).toHaveLength(compactions.length);
    expect(requestText(summaries[0]!)).toContain('task marker 7c1e');
    // Every request of the coordinator holds the task text; those after a compaction hold the summary and fewer reads.
    const coordinator = coordinatorRequests(world.server.requests);
    for (const request of coordinator) expect(requestText(request)).toContain('task marker 7c1e');
    const afterFirst = coordinator.filter((request) => requestText(request).includes('SUMMARY-42'));
    expect(afterFirst.length).toBeGreaterThan(0);
    for (const request of afterFirst) expect(mockTokenCount(request.body)).toBeLessThan(10_000);
    // The roster (the Agent tool's description) and the system prompt are sent whole after a compaction.
    expect(afterFirst[0]!.system).toBe(coordinator[0]!.system);
    expect(afterFirst[0]!.toolNames).toEqual(coordinator[0]!.toolNames);
    // The compaction's own model call is counted in the task's tokens.
    const end = events.find((event) => event.type === 'task-end' && event.taskId === 't1');
    const allInput = world.server.requests
      .filter((request) => !request.refusedAsTooLong)
      .reduce((sum, request) => sum + mockTokenCount(request.body), 0);
    expect((end?.usage as { inputTokens: number }).inputTokens).toBe(allInput);
  });

  it('compacts and retries once when the provider refuses a request as too long, and completes', async () => {
    world.server.enforceContextWindow(7000);
    world.server.respondWith(readingCoordinator(4));
    const { args, env } = base();
    // The CLI believes the window is far larger: only the provider's refusal can tell it.
    const run = await startCli(world.cliPath, [...args, '--context-window', '1000000', task], env).exited;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = parseEvents(run.stdout);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const refused = world.server.requests.filter((request) => request.refusedAsTooLong);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    // Each refusal: a summary, then the same turn again, which fits.
    const refusedAt = refused[0]!.index;
    expect(isSummaryRequest(world.server.requests[refusedAt + 1]!)).toBe(true);
    const retried = world.server.requests[refusedAt + 2]!;
    expect(retried.refusedAsTooLong).toBeFalsy();
    expect(requestText(retried)).toContain('SUMMARY-42');
    expect(requestText(retried)).toContain('task marker 7c1e');
    // The window the provider named is the meter's from then on.
    expect(events.filter((event) => event.type === 'context').at(-1)).toMatchObject({ windowTokens: 7000 });
    expect(events.some((event) => event.type === 'compaction')).toBe(true);
  });

  it('fails clearly when the request is refused again after the compaction, keeping what was done', async () => {
    world.server.enforceContextWindow(6500);
    // After the summary, the window shrinks below anything the task could send.
    world.server.respondWith(readingCoordinator(5, () => world.server.enforceContextWindow(2000)));
    const { args, env } = base();
    const run = await startCli(world.cliPath, [...args, '--context-window', '1000000', task], env).exited;
    expect(run.code).not.toBe(0);
    const events = parseEvents(run.stdout);
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'run-end', status: 'failed' });
    expect(String(end.error)).toContain('does not fit the context window');
    expect(String(end.error)).toContain('even after it was compacted');
    // Exactly one retry: refused, summary, refused again, and nothing more.
    const refused = world.server.requests.filter((request) => request.refusedAsTooLong);
    expect(refused).toHaveLength(2);
    expect(world.server.requests.at(-1)!.refusedAsTooLong).toBe(true);
    // Nothing lost: the run log holds the transcript (the reads, the compaction) and the compacted conversation.
    const log = await readFile(path.join(world.workspace, '.agent-team', 'runs', 't1.jsonl'), 'utf8');
    expect(log).toContain('"type":"compaction"');
    expect(log).toContain('SUMMARY-42');
    expect(log).toContain('task marker 7c1e');
  });

  it('goes on from the compacted conversation with --resume after a SIGKILL that follows a compaction', async () => {
    world.server.enforceContextWindow(10_000);
    let killed = false;
    const reader = readingCoordinator(6);
    world.server.respondWith((request) => {
      // The first request after the compaction's next one hangs until the process is killed.
      if (
        !killed &&
        agentOf(request) === 'coordinator' &&
        requestText(request).includes('SUMMARY-42') &&
        world.server.requests.filter((each) => agentOf(each) === 'coordinator' && requestText(each).includes('SUMMARY-42')).length >= 2
      )
        return { type: 'hang' };
      return reader(request);
    });
    const { args, env } = base();
    const first = startCli(world.cliPath, [...args, '--context-window', '10000', task], env);
    const hanging = await new Promise<RecordedRequest>((resolve) => {
      const check = (index: number): void =>
        void world.server
          .waitForRequest(index)
          .then((request) =>
            requestText(request).includes('SUMMARY-42') &&
            agentOf(request) === 'coordinator' &&
            world.server.requests.filter((each) => agentOf(each) === 'coordinator' && requestText(each).includes('SUMMARY-42')).length >= 2
              ? resolve(request)
              : check(index + 1),
          );
      check(0);
    });
    killed = true;
    first.child.kill('SIGKILL');
    const gone = await first.exited;
    expect(parseEvents(gone.stdout).some((event) => event.type === 'compaction')).toBe(true);
    expect(parseEvents(gone.stdout).some((event) => event.type === 'run-end')).toBe(false);

    const before = world.server.requests.length;
    const second = await startCli(world.cliPath, [...args, '--context-window', '10000', '--resume', 't1'], env).exited;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(parseEvents(second.stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    // The resumed coordinator's first request is the compacted conversation, not the whole one.
    const resumed = world.server.requests.slice(before).find((request) => agentOf(request) === 'coordinator')!;
    expect(requestText(resumed)).toContain('SUMMARY-42');
    expect(requestText(resumed)).toContain('task marker 7c1e');
    expect(mockTokenCount(resumed.body)).toBeLessThan(mockTokenCount(hanging.body) + 2000);
    const firstMessage = JSON.stringify(
      (resumed.body as { messages: unknown[] }).messages.find((message) => (message as { role: string }).role === 'user'),
    );
    expect(firstMessage).toContain('task marker 7c1e');
    expect(firstMessage).toContain('SUMMARY-42');
  });
});

describe.each<MockProtocol>(['anthropic', 'openai'])('compaction on demand, hooks and the trace (%s)', (protocol) => {
  const base = () => {
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    return { args: ['run', '--json', '--workspace', world.workspace, ...provider.args], env: provider.env };
  };

  it('a PreCompact hook is told before the compaction, and the trace holds the meter and the compaction', async () => {
    await mkdir(path.join(world.workspace, '.claude', 'hooks'), { recursive: true });
    await writeFile(
      path.join(world.workspace, '.claude', 'hooks', 'pre-compact.js'),
      "let input = '';\nprocess.stdin.on('data', (chunk) => (input += chunk));\nprocess.stdin.on('end', () => { const event = JSON.parse(input); process.stdout.write(`seen ${event.hook_event_name} trigger=${event.trigger}`); });\n",
    );
    await writeFile(
      path.join(world.workspace, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { PreCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: 'node .claude/hooks/pre-compact.js' }] }] },
      }),
    );
    const home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    world.server.enforceContextWindow(10_000);
    world.server.respondWith(readingCoordinator(5));
    const { args, env } = base();
    const trace = path.join(home, 'trace.json');
    const run = await startCli(world.cliPath, [...args, '--trust', '--trace', trace, '--context-window', '10000', task], {
      ...env,
      HOME: home,
    }).exited;
    expect(run.code).toBe(0);
    const notices = parseEvents(run.stdout)
      .filter((event) => event.type === 'notice')
      .map((event) => String(event.text));
    const hook = notices.findIndex((text) => text.includes('Hook PreCompact') && text.includes('seen PreCompact trigger=auto'));
    const compacted = notices.findIndex((text) => text.startsWith('compacted: '));
    expect(hook).toBeGreaterThanOrEqual(0);
    expect(compacted).toBeGreaterThan(hook);
    const traced = JSON.parse(await readFile(trace, 'utf8')) as {
      run: { context?: { usedTokens: number; windowTokens: number }; transcript: Array<{ type: string; text?: string }> };
    };
    expect(traced.run.context).toMatchObject({ windowTokens: 10_000 });
    expect(traced.run.context!.usedTokens).toBeGreaterThan(0);
    expect(
      traced.run.transcript.some(
        (entry) => entry.type === 'notice' && entry.text?.startsWith('compacted: ') && entry.text.includes('SUMMARY-42'),
      ),
    ).toBe(true);
    await rm(home, { recursive: true, force: true });
  });

  it('/compact as a follow-up compacts the kept conversation, and the next follow-up goes on from it', async () => {
    world.server.respondWith(readingCoordinator(3));
    const { args, env } = base();
    const first = await startCli(world.cliPath, [...args, task], env).exited;
    expect(first.code).toBe(0);
    const before = world.server.requests.length;
    const compact = await startCli(world.cliPath, [...args, '--continue', 't1', '/compact the ship count'], env).exited;
    expect(compact.stderr).toBe('');
    expect(compact.code).toBe(0);
    const events = parseEvents(compact.stdout);
    expect(String(events.at(-1)!.output)).toMatch(/^compacted: \d+ → \d+ tokens$/);
    expect(events.some((event) => event.type === 'compaction')).toBe(true);
    // Only the summary was asked for, with the focus given.
    const asked = world.server.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(isSummaryRequest(asked[0]!)).toBe(true);
    expect(requestText(asked[0]!)).toContain('Focus on: the ship count');

    world.server.respondWith(() => textTurn('Still many ships.'));
    const next = await startCli(world.cliPath, [...args, '--continue', 't1', 'How many ships?'], env).exited;
    expect(next.code).toBe(0);
    const followUp = world.server.requests.at(-1)!;
    expect(requestText(followUp)).toContain('SUMMARY-42');
    expect(requestText(followUp)).toContain('task marker 7c1e');
    expect(requestText(followUp)).toContain('How many ships?');
    expect(requestText(followUp)).not.toContain('/compact');
    // Fewer reads than the three of the first run: the older ones are in the summary.
    expect((requestText(followUp).match(/harbour office records every ship/g) ?? []).length).toBeLessThan(
      (requestText(world.server.requests[before - 1]!).match(/harbour office records every ship/g) ?? []).length,
    );
  });
});
