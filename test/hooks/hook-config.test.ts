/**
 * Reading hooks as Claude Code writes them: matchers by its rules, problems that name what is not run,
 * patterns that could take forever refused, the files merged (same command once), `disableAllHooks`, and
 * settings files that are too large or not JSON.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultHookTimeoutSeconds,
  matches,
  maxHookTimeoutSeconds,
  parseHookSettings,
  parseMatcher,
} from '../../src/engine/hooks/hook-config.js';
import { loadHooks, maxHookSettingsBytes } from '../../src/engine/hooks/hook-sources.js';

describe('matchers', () => {
  const hook = (matcherText: string) =>
    parseHookSettings({ hooks: { PreToolUse: [{ matcher: matcherText, hooks: [{ type: 'command', command: 'x' }] }] } }, 's').hooks[0]!;

  it('empty and * match every name; names with | are exact; anything else is a regular expression found anywhere', () => {
    expect(matches(hook(''), 'Bash')).toBe(true);
    expect(matches(hook('*'), 'mcp__github__search')).toBe(true);
    expect(matches(hook('Edit|Write'), 'Write')).toBe(true);
    expect(matches(hook('Edit|Write'), 'WriteNotebook')).toBe(false);
    expect(matches(hook('Edit'), 'edit')).toBe(false);
    expect(matches(hook('mcp__github__.*'), 'mcp__github__search')).toBe(true);
    expect(matches(hook('^Web'), 'WebFetch')).toBe(true);
    expect(matches(hook('^Web'), 'NoWeb')).toBe(false);
  });

  it('refuses patterns whose test could take forever, and ones that do not compile', () => {
    expect(parseMatcher('(a+)+b')).toMatch(/repeated group/);
    expect(parseMatcher('(a|a)*b')).toMatch(/repeated group/);
    expect(parseMatcher('a*b*c*d*')).toMatch(/more than three repeats/);
    expect(parseMatcher('x'.repeat(201) + '.')).toMatch(/longer than 200/);
    expect(parseMatcher('Edit(')).toMatch(/Invalid regular expression/);
    const parsed = parseHookSettings(
      { hooks: { PreToolUse: [{ matcher: '(a+)+', hooks: [{ type: 'command', command: 'x' }] }] } },
      '.claude/settings.json',
    );
    expect(parsed.hooks).toEqual([]);
    expect(parsed.problems[0]).toContain('.claude/settings.json: hooks.PreToolUse[0]: matcher "(a+)+" is refused');
  });
});

describe('settings', () => {
  it('names every entry it does not run, and runs the rest', () => {
    const parsed = parseHookSettings(
      {
        hooks: {
          Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'prompt', prompt: 'Is this safe?' },
                { type: 'command', command: './check.sh', timeout: 10_000, once: true },
                { type: 'command' },
              ],
            },
          ],
          Stop: 'not a list',
        },
      },
      '~/.claude/settings.json',
    );
    expect(parsed.hooks).toEqual([
      {
        event: 'PreToolUse',
        matcher: ['Bash'],
        matcherText: 'Bash',
        command: './check.sh',
        timeoutMs: maxHookTimeoutSeconds * 1000,
        source: '~/.claude/settings.json',
      },
    ]);
    expect(parsed.problems).toEqual([
      '~/.claude/settings.json: hooks of event "Notification" are not run by Agent Team (it runs PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop, PreCompact)',
      '~/.claude/settings.json: hooks.PreToolUse[0].hooks[0]: hooks of type "prompt" are not run by Agent Team (only "command")',
      '~/.claude/settings.json: hooks.PreToolUse[0].hooks[1]: "once" not understood; ignored',
      '~/.claude/settings.json: hooks.PreToolUse[0].hooks[2]: has no command; skipped',
      '~/.claude/settings.json: hooks.Stop is not a list; its hooks are not run',
    ]);
  });

  it('gives a hook without a timeout the default one', () => {
    const parsed = parseHookSettings({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] } }, 's');
    expect(parsed.hooks[0]?.timeoutMs).toBe(defaultHookTimeoutSeconds * 1000);
    expect(parsed.hooks[0]?.matcher).toBeUndefined();
  });
});

describe('the settings files', () => {
  let root: string;
  let home: string;
  const write = async (base: string, relative: string, content: unknown) => {
    await mkdir(path.dirname(path.join(base, relative)), { recursive: true });
    await writeFile(path.join(base, relative), typeof content === 'string' ? content : JSON.stringify(content));
  };
  const stop = (command: string) => ({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'agent-team-hooks-'));
    home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it("reads the user's files, then the project's, and runs the same command for one event once", async () => {
    await write(home, '.claude/settings.json', stop('notify'));
    await write(root, '.claude/settings.json', stop('notify'));
    await write(root, '.claude/settings.local.json', stop('mine'));
    await write(root, '.agent-team/settings.json', stop('team'));
    const loaded = await loadHooks(root, home);
    expect(loaded.hooks.map((hook) => [hook.command, hook.source])).toEqual([
      ['notify', '~/.claude/settings.json'],
      ['mine', '.claude/settings.local.json'],
      ['team', '.agent-team/settings.json'],
    ]);
    expect(loaded.problems).toEqual([]);
  });

  it('runs none when a file sets disableAllHooks', async () => {
    await write(root, '.claude/settings.json', stop('notify'));
    await write(home, '.claude/settings.json', { disableAllHooks: true });
    const loaded = await loadHooks(root, home);
    expect(loaded.hooks).toEqual([]);
    expect(loaded.problems).toEqual(['No hook runs: ~/.claude/settings.json sets "disableAllHooks"']);
  });

  it('does not read a file that is not JSON or larger than its limit (a 5 MB settings file)', async () => {
    await write(root, '.claude/settings.json', '{ "hooks": ');
    await write(root, '.agent-team/settings.json', JSON.stringify({ hooks: {}, padding: 'x'.repeat(5 * 1024 * 1024) }));
    const loaded = await loadHooks(root, undefined);
    expect(loaded.hooks).toEqual([]);
    expect(loaded.problems[0]).toMatch(/^\.claude\/settings\.json was not read: .*JSON.*; its hooks are not run$/);
    expect(loaded.problems[1]).toBe(
      `.agent-team/settings.json was not read: it is larger than ${maxHookSettingsBytes / 1024} KiB; its hooks are not run`,
    );
  });

  it.skipIf(process.platform === 'win32')(
    'does not read a settings file that is a link to a secret inside the workspace, nor echo one that is not JSON',
    async () => {
      const secret = 'AKIAIOSFODNN7EXAMPLE';
      await writeFile(path.join(root, '.env'), `API_TOKEN=${secret}\n`);
      await mkdir(path.join(root, '.claude'), { recursive: true });
      await symlink('../.env', path.join(root, '.claude', 'settings.json'));
      await write(root, '.agent-team/settings.json', secret);
      const loaded = await loadHooks(root, undefined);
      expect(loaded.hooks).toEqual([]);
      expect(loaded.problems).toEqual([
        '.claude/settings.json was not read: it is a symbolic link to .env, which may hold secrets (it matches **/.env); such files are never read, under any name; its hooks are not run',
        '.agent-team/settings.json was not read: it is not valid JSON; its hooks are not run',
      ]);
    },
  );
});
