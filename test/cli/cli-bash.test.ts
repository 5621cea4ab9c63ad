/**
 * `Bash` through the real CLI bundle and both SDKs: the coordinator sends the refactorer, which proposes an
 * edit and runs the test allowed by `--allow-command`; the test sees the proposal, the user's folder does
 * not, and the scratch copy is gone when the run ends. A command not allowed is refused in words the agent
 * passes on. Where the copies live: a squatted scratch directory (another user's, a link) is not used, and
 * XDG_RUNTIME_DIR is.
 */
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({
  'greeting.txt': 'hello\n',
  'test.js':
    "const text = require('fs').readFileSync('greeting.txt', 'utf8').trim(); console.log('greeting: ' + text); process.exit(text === 'hello, world' ? 0 : 1);\n",
});

/** The scratch directory of a run given `temporary` as its TMPDIR: its own, so parallel runs do not count. */
const scratchDirectory = (temporary: string) => path.join(temporary, `agent-team-scratch-${process.getuid?.() ?? 'user'}`);

describe.each(['anthropic', 'openai'] as const)('Bash in the CLI over %s', (protocol) => {
  it('an allowed command runs on the proposal in a scratch copy; the folder is unchanged; the copy is removed', async () => {
    const temporary = await mkdtemp(path.join(tmpdir(), 'agent-team-cli-bash-'));
    onTestFinished(() => rm(temporary, { recursive: true, force: true }));
    world.server.respondWith((request) => {
      if (agentOf(request) === 'refactorer') {
        if (priorTurns(request) === 0)
          return toolCallTurn([{ name: 'Edit', input: { file_path: 'greeting.txt', old_string: 'hello', new_string: 'hello, world' } }]);
        if (priorTurns(request) === 1)
          return toolCallTurn([{ name: 'Bash', input: { command: 'node test.js', description: 'Run the test' } }]);
        return textTurn(`Proposed; the test says: ${request.lastMessageText}`);
      }
      return priorTurns(request) === 0
        ? toolCallTurn([
            {
              name: 'Agent',
              input: { subagent_type: 'refactorer', description: 'Greet the world', prompt: 'Change the greeting and run node test.js' },
            },
          ])
        : textTurn(`Done: ${request.lastMessageText}`);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, '--allow-command', 'node test.js', ...provider.args, 'Greet the world'],
      { ...provider.env, TMPDIR: temporary },
    ).exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const output = parseEvents(stdout).at(-1)?.output as string;
    expect(output).toContain('Exit code 0');
    expect(output).toContain('greeting: hello, world');
    // Which copy it ran in is said: an overlay where this machine can mount one, else the git-made copy.
    expect(output).toMatch(/Ran in: a (copy-on-write overlay|git-made copy) of the workspace/);
    expect(await readFile(path.join(world.workspace, 'greeting.txt'), 'utf8')).toBe('hello\n');
    // The run made its copy there (the directory exists) and removed it when it ended.
    expect(existsSync(scratchDirectory(temporary))).toBe(true);
    expect(await readdir(scratchDirectory(temporary))).toEqual([]);
  });
});

describe('a command the CLI does not allow', () => {
  it('is refused, naming the flag that would allow it', async () => {
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Bash', input: { command: 'rm -rf build' } }])
        : textTurn(`Could not run it: ${request.lastMessageText}`),
    );
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'reviewer', '--workspace', world.workspace, '--allow-command', 'npm test', ...provider.args, 'Review'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)?.output).toContain(
      'Not run: `rm -rf build` is not among the commands the user allows. The user allows commands with --allow-command <pattern>',
    );
    // The user hears of it at the end, with the flag that would allow it.
    expect(stderr).toContain(
      "agent-team: a command the agents wanted to run was refused (nothing allowed it). To allow it next time, add: --allow-command 'rm -rf build'",
    );
  });
});

describe('a scratch directory another user made first', () => {
  const uid = process.getuid?.() ?? 0;

  /** Runs `pwd` as the reviewer with TMPDIR `temporary`; returns what it printed. */
  async function workingDirectory(temporary: string): Promise<string> {
    world.server.respondWith((request) =>
      priorTurns(request) === 0 ? toolCallTurn([{ name: 'Bash', input: { command: 'pwd' } }]) : textTurn(`Ran: ${request.lastMessageText}`),
    );
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'reviewer', '--workspace', world.workspace, '--allow-command', 'pwd', ...provider.args, 'Where?'],
      { ...provider.env, TMPDIR: temporary },
    ).exited;
    expect(code).toBe(0);
    const output = String(parseEvents(stdout).at(-1)?.output);
    expect(output).toContain('Exit code 0');
    return output;
  }

  it.skipIf(uid !== 0)(
    "is not used: the command runs in a fresh folder of ours, nothing lands in the other user's, and the fresh one goes",
    async () => {
      const temporary = await mkdtemp(path.join(tmpdir(), 'agent-team-cli-squat-'));
      onTestFinished(() => rm(temporary, { recursive: true, force: true }));
      const squatted = scratchDirectory(temporary);
      await mkdir(squatted, { mode: 0o777 });
      await chmod(squatted, 0o777);
      await chown(squatted, 65534, 65534);
      const output = await workingDirectory(temporary);
      expect(output).toContain(`${scratchDirectory(temporary)}-`);
      expect(await readdir(squatted)).toEqual([]);
      // Only the squatted folder is left: the fresh one was removed with the run's copies.
      expect(await readdir(temporary)).toEqual([path.basename(squatted)]);
    },
  );

  it('a link by its name is not followed: the command runs in a fresh folder of ours', async () => {
    const temporary = await mkdtemp(path.join(tmpdir(), 'agent-team-cli-squat-'));
    onTestFinished(() => rm(temporary, { recursive: true, force: true }));
    const target = path.join(temporary, 'attacker');
    await mkdir(target, { mode: 0o777 });
    await symlink(target, scratchDirectory(temporary));
    const output = await workingDirectory(temporary);
    expect(output).toContain(`${scratchDirectory(temporary)}-`);
    expect(await readdir(target)).toEqual([]);
  });

  it('lives under XDG_RUNTIME_DIR instead when that is a private folder of ours (as root: under /run, which the sandbox hides)', async () => {
    const parent = uid === 0 ? '/run' : tmpdir();
    const runtime = await mkdtemp(path.join(parent, 'agent-team-runtime-'));
    onTestFinished(() => rm(runtime, { recursive: true, force: true }));
    world.server.respondWith((request) =>
      priorTurns(request) === 0 ? toolCallTurn([{ name: 'Bash', input: { command: 'pwd' } }]) : textTurn(`Ran: ${request.lastMessageText}`),
    );
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'reviewer', '--workspace', world.workspace, '--allow-command', 'pwd', ...provider.args, 'Where?'],
      { ...provider.env, XDG_RUNTIME_DIR: runtime },
    ).exited;
    expect(code).toBe(0);
    const output = String(parseEvents(stdout).at(-1)?.output);
    expect(output).toContain('Exit code 0');
    expect(output).toContain(`${runtime}/agent-team-scratch/`);
    expect(await readdir(path.join(runtime, 'agent-team-scratch'))).toEqual([]);
  });
});
