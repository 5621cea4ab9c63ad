/**
 * What reaches the user's terminal from a model, a role file or a command is text, never instructions
 * to the terminal (OSC 52 clipboard writes, window titles, screen clears, 8-bit CSI); our own colours
 * stay. A reader that goes away (`| head -1`) ends the CLI quietly. Through the real CLI bundle.
 */
/* eslint-disable no-control-regex -- the point of these tests is control characters in output */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeJson } from '../../src/cli/terminal-text.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'a.txt': 'hello\n' });
const hostile = 'before\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007\u001b]0;pwned title\u001b\\\u001b[2J\u009b31mafter\rover\u0008x\u202Egnp.exe';

describe('terminalSafe', () => {
  it('removes escape sequences, shows other controls and bidi overrides, keeps text and line ends', () => {
    expect(terminalSafe(hostile)).toBe('beforeafter\uFFFDover\uFFFDx<U+202E>gnp.exe');
    expect(terminalSafe('a\r\nb\tc\n')).toBe('a\nb\tc\n');
    // An unterminated OSC loses only its introducer: the rest is shown, so nothing can hide the tail.
    expect(terminalSafe('x\u001b]52;c;AAAA and the tail')).toBe('x52;c;AAAA and the tail');
    expect(terminalSafe('long ' + '\u001b['.repeat(50_000) + '0m end')).toBe('long  end');
  });

  it('keeps JSON Lines valid while escaping C1 controls', () => {
    const line = terminalSafeJson({ text: hostile });
    expect(line).not.toMatch(/[\u0080-\u009f\u001b\u202e]/);
    expect(JSON.parse(line)).toEqual({ text: hostile });
  });
});

describe('the CLI prints hostile text harmlessly', () => {
  it('in the answer, the task tree, the diff and a role file, with our colours kept', async () => {
    await mkdir(path.join(world.workspace, '.agent-team', 'agents'), { recursive: true });
    await writeFile(
      path.join(world.workspace, '.agent-team', 'agents', 'sly.md'),
      `---\nname: sly\ndescription: Looks harmless\u001b]0;owned\u0007 really\ntools: [Read, Edit]\n---\nBe sly.\n`,
    );
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Edit', input: { file_path: 'a.txt', old_string: 'hello', new_string: `hello ${hostile}` } }])
        : textTurn(`Answer ${hostile}`),
    );
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const run = await startCli(world.cliPath, ['run', '--agent', 'sly', '--workspace', world.workspace, ...provider.args, 'Edit'], {
      ...provider.env,
      FORCE_COLOR: '1',
    }).exited;
    expect(run.code).toBe(0);
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toMatch(/\u001b\]|\u009b|\u001b\[2J|\u0007/);
    }
    expect(run.stdout).toContain('Answer beforeafter');
    // Our own colours: the diff's added line in green.
    expect(run.stdout).toContain('\u001b[32m+hello beforeafter');
    const agents = await startCli(world.cliPath, ['agents', '--workspace', world.workspace], {}).exited;
    expect(agents.stdout).toContain('Looks harmless really');
    expect(agents.stdout).not.toContain('\u001b');
  });

  it('--json output stays one valid event per line with the controls escaped', async () => {
    world.server.respondWith(() => textTurn(`Answer ${hostile}`));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, 'Say'],
      provider.env,
    ).exited;
    expect(stdout).not.toMatch(/[\u001b\u0080-\u009f\u0007]/);
    expect(parseEvents(stdout).at(-1)?.output).toBe(`Answer ${hostile}`);
  });
});

describe('a reader that goes away', () => {
  it('ends the CLI quietly: no EPIPE stack trace, the run stopped', async () => {
    world.server.respondWith(() => textTurn(`${'a long answer line\n'.repeat(200_000)}`));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, 'Say a lot'],
      provider.env,
    );
    run.child.stdout?.once('data', () => run.child.stdout?.destroy());
    const { code, stderr } = await run.exited;
    expect(stderr).not.toMatch(/EPIPE|Error:| {4}at /);
    expect([0, 130]).toContain(code);
  });
});
