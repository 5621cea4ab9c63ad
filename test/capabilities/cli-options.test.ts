/**
 * The CLI's capability options come from the descriptors: each declared option is accepted by run, mcp and
 * serve, parsed into its capability's setting, and shown in each command's --help, with nothing written
 * for it in the CLI.
 */
import { describe, expect, it } from 'vitest';
import { parseArguments, type RunArguments, UsageError } from '../../src/cli/arguments.js';
import { commandUsage } from '../../src/cli/command-usage.js';
import { declaredSettings } from '../../src/engine/capabilities/descriptor-list.js';
import { capabilityDescriptors, defaultCapabilitySettings } from '../../src/engine/team/capabilities.js';
import { startCli } from '../cli/cli-harness.js';
import { useCliWorld } from '../cli/cli-world.js';

const world = useCliWorld({});
const options = declaredSettings(capabilityDescriptors).flatMap(({ capability, name, setting }) =>
  (setting.cli ?? []).map((option) => ({ capability, name, setting, option })),
);
const commandLines: Record<string, string[]> = {
  run: ['run', 'a task'],
  mcp: ['mcp'],
  serve: ['serve', '--a2a', '--port', '0', '--no-auth'],
};

/** The option as given on a command line: a switch alone, else with its example (the parse's input). */
const given = (option: (typeof options)[number]['option']) =>
  option.kind === 'switch' ? [option.flag] : [option.flag, option.example ?? 'value'];

describe('the options capabilities declare', () => {
  it('are there at all: the migrated settings have their flags', () => {
    expect(options.map(({ option }) => option.flag)).toEqual(
      expect.arrayContaining(['--allow-domain', '--allow-command', '--no-sandbox', '--no-hooks', '--instruction-files', '--approve-plan']),
    );
  });

  it.each(options.map((entry) => [entry.option.flag, entry] as const))(
    '%s: parsed into its setting by run, mcp and serve',
    (_flag, entry) => {
      for (const [command, line] of Object.entries(commandLines)) {
        const parsed = parseArguments([...line, ...given(entry.option)], '/work') as RunArguments;
        const settings = parsed.settings as unknown as Record<string, Record<string, unknown>>;
        const defaults = defaultCapabilitySettings() as unknown as Record<string, Record<string, unknown>>;
        const expected =
          entry.option.kind === 'switch' ? entry.option.sets : entry.option.parse ? entry.option.parse([entry.option.example!]) : undefined;
        if (expected !== undefined) expect(settings[entry.capability]![entry.name], command).toEqual(expected);
        expect(settings[entry.capability]![entry.name], `${command}: given differs from the default`).not.toEqual(
          defaults[entry.capability]![entry.name],
        );
        expect(parseArguments(line, '/work')).toMatchObject({ settings: defaultCapabilitySettings() });
      }
    },
  );

  it.each(options.map((entry) => [entry.option.flag, entry] as const))('%s: shown in the help of run, mcp and serve', (flag, entry) => {
    const run = commandUsage('run');
    // Run's help gives the option its own line with the start of its explanation.
    expect(run).toMatch(new RegExp(`^ {4}${flag}\\b`, 'm'));
    expect(run.replace(/\s+/g, ' ')).toContain(entry.option.help.split(/\s+/).slice(0, 6).join(' '));
    for (const command of ['mcp', 'serve']) expect(commandUsage(command), command).toContain(`[${flag}`);
  });

  it('refuses a value the descriptor refuses, with its message, as a usage error', () => {
    expect(() => parseArguments(['run', 'x', '--allow-domain', 'https://example.com/path'], '/work')).toThrow(UsageError);
    expect(() => parseArguments(['run', 'x', '--instruction-files', 'bogus'], '/work')).toThrow(/--instruction-files takes agents/);
  });

  it('agent-team run --help, the real CLI, shows every declared option', async () => {
    const help = await startCli(world.cliPath, ['run', '--help'], {}).exited;
    expect(help.code).toBe(0);
    for (const { option } of options) expect(help.stdout).toContain(option.flag);
  });
});
