/**
 * The CLI's guarantees that need exact control of the process: a second Ctrl-C exits at once, a run whose
 * event loop runs dry ends loudly (exit 1, the stuck tasks named, one run-end), and Ctrl-C during
 * `--apply` stops between files and says which were written.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { applyRunChanges } from '../../src/cli/apply-changes.js';
import { type RunArguments, parseArguments } from '../../src/cli/arguments.js';
import { Interrupts } from '../../src/cli/interrupts.js';
import { runCommand } from '../../src/cli/run-command.js';
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';
import { hangingStream, startMockProviderServer, type MockProviderServer } from '../support/mock-provider/index.js';
import { parseEvents } from './cli-harness.js';

class FakeProcess extends EventEmitter {
  exitCode: number | undefined;
  exit(code: number): void {
    this.exitCode = code;
  }
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function temporaryWorkspace(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'agent-team-run-end-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(directory, name), content);
  return directory;
}

describe('Ctrl-C', () => {
  it('the first stops the run and aborts the signal; the second exits at once with 130', () => {
    const process = new FakeProcess();
    const written: string[] = [];
    let stops = 0;
    const interrupts = new Interrupts(process, { write: (text) => written.push(text) }, () => stops++);
    process.emit('SIGINT');
    expect([stops, interrupts.interrupted, interrupts.signal.aborted, process.exitCode]).toEqual([1, true, true, undefined]);
    process.emit('SIGINT');
    expect(process.exitCode).toBe(130);
    expect(written.join('')).toContain('exiting at once');
    interrupts.dispose();
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('during --apply stops between files and names what was and was not written', async () => {
    const root = await temporaryWorkspace({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const workspace = new NodeWorkspace(root);
    const changes = new ChangeSetRegistry();
    const changeSet = changes.create('t1', 'refactorer');
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      changeSet.propose(name, { baseContent: `${name[0]}\n`, proposedContent: `${name[0]} changed\n` });
    const controller = new AbortController();
    // Ctrl-C arrives while the first file is being written.
    const writeText = workspace.writeText.bind(workspace);
    workspace.writeText = async (...args: Parameters<typeof workspace.writeText>) => {
      controller.abort();
      return writeText(...args);
    };
    const output: string[] = [];
    const result = await applyRunChanges({ status: 'completed' } as TaskSnapshot, [changeSet], workspace, {
      signal: controller.signal,
      output: { write: (text) => output.push(text) },
      taskOf: () => ({ status: 'completed' }) as TaskSnapshot,
    });
    expect(result.failed).toBe(true);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a changed\n');
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('b\n');
    expect(await readFile(path.join(root, 'c.txt'), 'utf8')).toBe('c\n');
    expect(output.join('')).toContain('Applying stopped by Ctrl-C. Written: a.txt. Not written: b.txt, c.txt.');
  });
});

describe('a run that can make no more progress', () => {
  let server: MockProviderServer;

  it('ends with exit 1, a diagnostic naming the stuck tasks, and exactly one run-end', async () => {
    server = await startMockProviderServer();
    cleanups.push(() => server.close());
    server.respondWith(() => hangingStream({ text: ['Looking…'] }));
    const root = await temporaryWorkspace({ 'a.txt': 'a\n' });
    const args = parseArguments(
      ['run', '--json', '--workspace', root, '--provider', 'anthropic', '--base-url', server.baseUrl, 'Look'],
      root,
    ) as RunArguments;
    const process = new FakeProcess();
    const stdout: string[] = [];
    const stderr: string[] = [];
    const finished = runCommand(args, {
      stdout: { write: (text) => stdout.push(text) },
      stderr: { write: (text) => stderr.push(text) },
      environment: { ANTHROPIC_API_KEY: 'test-key' },
      process,
    });
    await server.waitForRequest(0);
    // What Node does when nothing is left to run: the guard turns a silent exit 0 into a loud failure.
    process.emit('beforeExit');
    expect(await finished).toBe(1);
    expect(stderr.join('')).toMatch(
      /the run stopped making progress with 1 task\(s\) unfinished[\s\S]*t1 coordinator "Look": running, holds a slot/,
    );
    const events = parseEvents(stdout.join(''));
    expect(events.filter((event) => event.type === 'run-end')).toEqual([
      expect.objectContaining({ status: 'failed', error: expect.stringContaining('stopped making progress') }),
    ]);
    expect(events.at(-1)?.type).toBe('run-end');
    expect(process.listenerCount('beforeExit')).toBe(0);
  });
});
