/**
 * What users apply and keep, through the real CLI bundle: --apply writes the proposals of tasks that
 * completed and lists a failed subagent's as skipped; a run history folder that is a link is refused; a
 * damaged history record is kept in a `.corrupt` file instead of being dropped at the next save.
 */
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, httpError, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'a.txt': 'a\n', 'b.txt': 'b\n' });

/** The prompt a task started with: which of two subagents of one role a request belongs to. */
function firstUserText(request: RecordedRequest): string {
  return JSON.stringify(
    (request.body as { messages?: unknown[] }).messages?.find((message) => (message as { role?: string }).role === 'user') ?? '',
  );
}

describe('--apply after a subagent failed', () => {
  it.each(['anthropic', 'openai'] as const)(
    'writes the completed tasks’ proposals and lists the failed one’s as skipped (%s)',
    async (protocol) => {
      world.server.respondWith((request) => {
        if (agentOf(request) === 'coordinator') {
          return priorTurns(request) === 0
            ? toolCallTurn([
                { name: 'Agent', input: { subagent_type: 'refactorer', description: 'Edit a', prompt: 'Edit file a' } },
                { name: 'Agent', input: { subagent_type: 'refactorer', description: 'Edit b', prompt: 'Edit file b' } },
              ])
            : textTurn('One edit failed; the other is done.');
        }
        const file = firstUserText(request).includes('Edit file a') ? 'a.txt' : 'b.txt';
        if (priorTurns(request) === 0)
          return toolCallTurn([{ name: 'Edit', input: { file_path: file, old_string: file[0], new_string: `${file[0]} changed` } }]);
        // The first refactorer fails after proposing its edit: half of a change.
        return file === 'a.txt' ? httpError(400, { message: 'the model refused' }) : textTurn('Edited b.');
      });
      const provider = providerEnvironment(protocol, world.server.baseUrl);
      const { code, stdout } = await startCli(
        world.cliPath,
        ['run', '--apply', '--workspace', world.workspace, ...provider.args, 'Edit both'],
        provider.env,
      ).exited;
      expect(await readFile(path.join(world.workspace, 'b.txt'), 'utf8')).toBe('b changed\n');
      expect(await readFile(path.join(world.workspace, 'a.txt'), 'utf8')).toBe('a\n');
      expect(stdout).toMatch(/skipped: a\.txt — not applied because refactorer t\d+ failed/);
      expect(stdout).toContain('applied: b.txt');
      expect(code).toBe(0);
    },
  );
});

describe('the run history', () => {
  it('is not kept through a link: exit 2 and why', async () => {
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'agent-team-elsewhere-'));
    try {
      await mkdir(path.join(world.workspace, '.agent-team'));
      await symlink(elsewhere, path.join(world.workspace, '.agent-team', 'runs'));
      world.server.respondWith(() => textTurn('Hi.'));
      const provider = providerEnvironment('openai', world.server.baseUrl);
      const { code, stderr } = await startCli(
        world.cliPath,
        ['run', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, 'Hi'],
        provider.env,
      ).exited;
      expect(code).toBe(2);
      expect(stderr).toContain('.agent-team/runs is a link: the run history is not kept through a link');
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('skips a damaged line of a run with a warning naming it, and keeps the rest of the run (edited, the run is foreign: --force)', async () => {
    world.server.respondWith((request) => textTurn(JSON.stringify(request.body).includes('Hi there.') ? 'Remembered.' : 'Hi there.'));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const base = ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args];
    const first = await startCli(world.cliPath, [...base, 'Hi'], provider.env).exited;
    expect(first.code).toBe(0);
    const runFile = path.join(world.workspace, '.agent-team', 'runs', 't1.jsonl');
    const lines = (await readFile(runFile, 'utf8')).split('\n');
    // A hand edit broke the second line; everything else is as written.
    await writeFile(
      runFile,
      [lines[0], '{"type":"task","task":{"id":"broken-record","status":"no-such-status"}}', ...lines.slice(2)].join('\n'),
    );
    const { code, stderr, stdout } = await startCli(
      world.cliPath,
      [...base.filter((word) => word !== '--agent' && word !== 'researcher'), '--continue', 't1', '--force', 'Again'],
      provider.env,
    ).exited;
    expect(stderr).toContain("Run t1 is foreign: its run log's signature does not verify");
    expect(stderr).toMatch(/t1\.jsonl.*line 2/);
    expect(code).toBe(0);
    expect(stdout).toContain('Remembered.');
  });
});
