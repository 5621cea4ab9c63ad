/** What a command may see and what of its output is kept. */
import { describe, expect, it } from 'vitest';
import { commandEnvironment, isDroppedVariable } from '../../src/engine/commands/command-environment.js';
import { OutputTail, stripTerminalCodes } from '../../src/engine/commands/output-tail.js';

describe('the environment of a command', () => {
  it('drops keys, tokens, passwords, cloud credentials and the editor’s channels; keeps the rest', () => {
    const dropped = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GITHUB_TOKEN', 'GH_TOKEN', 'NPM_TOKEN', 'NODE_AUTH_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'DB_PASSWORD', 'SECRET', 'MY_PRIVATE_KEY', 'VSCODE_IPC_HOOK_CLI', 'ELECTRON_RUN_AS_NODE', 'GOOGLE_APPLICATION_CREDENTIALS', 'npm_config__auth'];
    for (const name of dropped) expect(isDroppedVariable(name), name).toBe(true);
    const kept = ['PATH', 'HOME', 'LANG', 'SHELL', 'NODE_OPTIONS', 'JAVA_HOME', 'KEYBOARD_LAYOUT', 'BYPASS_CACHE', 'AWS_REGION', 'TERM_PROGRAM'];
    for (const name of kept) expect(isDroppedVariable(name), name).toBe(false);
  });

  it('drops a configured key under any name, the host’s git locations, and quiets pagers, prompts and colours', () => {
    const environment = commandEnvironment({ PATH: '/bin', HARMLESS_NAME: 'sk-the-configured-key', GIT_DIR: '/home/me/repo/.git', UNSET: undefined }, { secretValues: ['sk-the-configured-key'] });
    expect(environment).toMatchObject({ PATH: '/bin', NO_COLOR: '1', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', CI: '1' });
    expect(Object.values(environment)).not.toContain('sk-the-configured-key');
    expect(environment.GIT_DIR).toBeUndefined();
    expect('UNSET' in environment).toBe(false);
  });
});

describe('the tail of an output', () => {
  it('keeps at most its limit as data arrives, and says how much of the start was dropped', () => {
    const tail = new OutputTail(10);
    for (let index = 0; index < 1000; index++) tail.push(Buffer.from(`${index}\n`));
    const { text, droppedBytes } = tail.text();
    expect(text).toBe('\n997\n998\n999\n'.slice(-10));
    expect(droppedBytes).toBe(tail.totalBytes - 10);
  });

  it('keeps a single chunk larger than the limit as its end', () => {
    const tail = new OutputTail(4);
    tail.push(Buffer.from('abcdefgh'));
    expect(tail.text()).toEqual({ text: 'efgh', droppedBytes: 4 });
  });

  it('does not start in the middle of a UTF-8 character', () => {
    const tail = new OutputTail(5);
    tail.push(Buffer.from('ééé'));
    const { text } = tail.text();
    expect(text).toBe('éé');
  });

  it('removes colour codes and turns progress-bar carriage returns into lines', () => {
    expect(stripTerminalCodes('\u001b[32m✓\u001b[39m passed\r\n 10%\r 50%\r100%\n')).toBe('✓ passed\r\n 10%\n 50%\n100%\n');
  });
});
