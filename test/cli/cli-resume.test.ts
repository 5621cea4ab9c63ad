/**
 * Runs that survive the process, through the CLI with the real SDKs: the CLI is killed (SIGKILL, no
 * chance to save anything more) while a subagent works; `agent-team run --resume <runId>` in a new
 * process finishes the run in place from the run log, without running a recorded tool call again, with
 * the proposal the subagent had made; a run that has nothing to resume is refused plainly.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.md': 'The notes say hello.\n' });

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run --resume (%s)', (protocol) => {
  it('finishes a run whose process was killed mid-run, from the log, without repeating the recorded Write', async () => {
    let killed = false;
    world.server.respondWith((request) => {
      const turns = priorTurns(request);
      if (agentOf(request) === 'refactorer') {
        if (turns === 0) return toolCallTurn([{ name: 'Write', input: { file_path: 'summary.md', content: 'Notes: hello\n' } }]);
        // The second turn of the first process never gets an answer: the process is killed while it waits.
        if (!killed) return { type: 'hang' };
        return textTurn(`Wrote summary.md (${request.lastMessageText.includes('has now been resumed') ? 'resumed' : 'fresh'}).`);
      }
      if (turns === 0)
        return toolCallTurn([
          {
            name: 'Agent',
            input: { subagent_type: 'refactorer', description: 'Summarize the notes', prompt: 'Write summary.md from notes.md' },
          },
        ]);
      return textTurn(`Done. ${request.lastMessageText}`);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const base = ['run', '--json', '--workspace', world.workspace, ...provider.args];
    const first = startCli(world.cliPath, [...base, 'Summarize the notes into summary.md'], provider.env);
    // Coordinator, refactorer's Write turn, refactorer's next turn (which hangs).
    await world.server.waitForRequest(2);
    // While it works, another process may not take the run over.
    const meanwhile = await startCli(world.cliPath, [...base, '--resume', 't1'], provider.env).exited;
    expect(meanwhile.code).toBe(2);
    expect(meanwhile.stderr).toContain(`Run t1 is being worked on by another agent-team process (pid ${first.child.pid})`);
    killed = true;
    first.child.kill('SIGKILL');
    const gone = await first.exited;
    expect(gone.code).not.toBe(0);
    expect(parseEvents(gone.stdout).some((event) => event.type === 'run-end')).toBe(false);

    const second = await startCli(world.cliPath, [...base, '--resume', 't1'], provider.env).exited;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const events = parseEvents(second.stdout);
    // The same two tasks went on; no new subagent started.
    expect(events.filter((event) => event.type === 'task-start').map((event) => event.taskId)).toEqual(['t1', 't2']);
    // The Write had its result recorded: it is not run again.
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([]);
    expect(events.find((event) => event.type === 'change-proposed')).toMatchObject({ taskId: 't2', path: 'summary.md' });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    // The coordinator's pending Agent call was answered by the resumed refactorer.
    const coordinatorResumed = world.server.requests.filter((request) => agentOf(request) === 'coordinator').at(-1)!;
    expect(JSON.stringify(coordinatorResumed.body)).toContain('Wrote summary.md (resumed).');
    // The refactorer went on from its conversation: its Write and that Write's result were in the request.
    const resumedRequest = world.server.requests.filter((request) => agentOf(request) === 'refactorer').at(-1)!;
    expect(priorTurns(resumedRequest)).toBe(1);
    expect(JSON.stringify(resumedRequest.body)).toContain('summary.md');
    // The user's folder is untouched until the proposal is applied.
    expect(await readdir(world.workspace)).not.toContain('summary.md');
  });
});

describe('agent-team run --resume, refused', () => {
  it('says plainly when the run has nothing interrupted, or is unknown (exit 2, nothing started)', async () => {
    world.server.respondWith(() => textTurn('All done.'));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const base = ['run', '--json', '--workspace', world.workspace, ...provider.args];
    expect((await startCli(world.cliPath, [...base, 'Say done'], provider.env).exited).code).toBe(0);
    const finished = await startCli(world.cliPath, [...base, '--resume', 't1'], provider.env).exited;
    expect(finished.code).toBe(2);
    expect(finished.stderr).toContain('Run t1 has nothing interrupted to resume');
    const unknown = await startCli(world.cliPath, [...base, '--resume', 't42'], provider.env).exited;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no run t42');
    // An id that would name a file elsewhere names no run, and nothing is written there.
    const escaping = await startCli(world.cliPath, [...base, '--resume', '../../escape'], provider.env).exited;
    expect(escaping.code).toBe(2);
    expect(escaping.stderr).toContain('There is no run "../../escape"');
    expect(existsSync(path.join(world.workspace, 'escape.lock'))).toBe(false);
    const usage = await startCli(world.cliPath, [...base, '--resume', 't1', 'and more'], provider.env).exited;
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--resume goes on with the run as it was');
    // The history's files are where the docs say.
    expect(await readdir(path.join(world.workspace, '.agent-team', 'runs'))).toEqual(expect.arrayContaining(['index.jsonl', 't1.jsonl']));
  });
});
