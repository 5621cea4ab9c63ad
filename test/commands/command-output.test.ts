/** What a command may see and what of its output is kept. */
import { describe, expect, it } from 'vitest';
import { childEnvironment, isPassedVariable, namesHoldingSecrets } from '../../src/engine/commands/child-environment.js';
import { OutputTail, stripTerminalCodes } from '../../src/engine/commands/output-tail.js';

describe('the environment of a command', () => {
  it('is built from an allowlist: the basics and the toolchains pass; secrets, however named, do not', () => {
    const kept = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'SHELL', 'JAVA_HOME', 'CARGO_HOME', 'VIRTUAL_ENV', 'NVM_DIR', 'TZ', 'SYSTEMROOT'];
    for (const name of kept) expect(isPassedVariable(name, '/x'), name).toBe(true);
    const dropped = [
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'NPM_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'DATABASE_URL',
      'PGPASSWORD',
      'MYSQL_PWD',
      'REDIS_URL',
      'VSCODE_IPC_HOOK_CLI',
      'ELECTRON_RUN_AS_NODE',
      'SSH_AUTH_SOCK',
      'NODE_OPTIONS',
      'GIT_DIR',
      'KUBECONFIG',
    ];
    for (const name of dropped) expect(isPassedVariable(name, 'value'), name).toBe(false);
  });

  it('passes a proxy without credentials, never one with them', () => {
    expect(isPassedVariable('HTTPS_PROXY', 'http://proxy.corp:3128')).toBe(true);
    expect(isPassedVariable('https_proxy', 'http://ada:hunter2@proxy.corp:3128')).toBe(false);
    expect(isPassedVariable('HTTPS_PROXY', 'ada:hunter2@proxy.corp:3128')).toBe(false);
  });

  it('passes what the user names, but never a configured secret under any name; quiets pagers, prompts and colours', () => {
    const source = {
      PATH: '/bin',
      DATABASE_URL: 'postgres://x',
      HARMLESS_NAME: 'sk-the-configured-key',
      ANTHROPIC_API_KEY: 'sk-the-configured-key',
      GIT_DIR: '/home/me/repo/.git',
      UNSET: undefined,
    };
    const environment = childEnvironment(source, {
      secretValues: ['sk-the-configured-key'],
      passNames: ['DATABASE_URL', 'ANTHROPIC_API_KEY', 'HARMLESS_NAME'],
    });
    expect(environment).toMatchObject({
      PATH: '/bin',
      DATABASE_URL: 'postgres://x',
      NO_COLOR: '1',
      PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      CI: '1',
    });
    expect(Object.values(environment)).not.toContain('sk-the-configured-key');
    expect(environment.GIT_DIR).toBeUndefined();
    expect('UNSET' in environment).toBe(false);
    expect(namesHoldingSecrets(source, ['DATABASE_URL', 'ANTHROPIC_API_KEY'], ['sk-the-configured-key'])).toEqual(['ANTHROPIC_API_KEY']);
    // A named variable that holds the key as a part (a header, a URL) is not passed either.
    expect(
      childEnvironment(
        { AUTH_HEADER: 'Bearer sk-the-configured-key' },
        { secretValues: ['sk-the-configured-key'], passNames: ['AUTH_HEADER'] },
      ).AUTH_HEADER,
    ).toBeUndefined();
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
