/**
 * `agent-team <command> --help` shows that command's usage, and it names every option the command's parser
 * accepts (found by trying each known option on the parser, not listed by hand): a flag a command takes
 * but its help does not show is a defect this test finds, as `mcp` had.
 */
import { describe, expect, it } from 'vitest';
import { knownOptions, parseArguments, UsageError } from '../../src/cli/arguments.js';
import { commandUsage } from '../../src/cli/command-usage.js';
import { startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({});

/** The least each command needs to parse. */
const minimal: Record<string, string[]> = {
  run: ['run', 'a task'],
  runs: ['runs'],
  apply: ['apply', 'r1'],
  agents: ['agents'],
  workflows: ['workflows'],
  models: ['models'],
  mcp: ['mcp'],
  serve: ['serve', '--a2a', '--port', '0', '--no-auth'],
  trust: ['trust'],
  checks: ['checks'],
  undo: ['undo', 'r1'],
  'mcp-servers': ['mcp-servers'],
};
/** A value each option accepts. */
const sample: Record<string, string> = {
  '--provider': 'openai',
  '--max-concurrent': '2',
  '--max-depth': '2',
  '--auto-background-seconds': '30',
  '--budget-tokens': '100',
  '--budget-usd': '1',
  '--delegation-reach': 'any',
  '--max-subtasks': '3',
  '--keep-runs': '5',
  '--port': '0',
  '--host': '127.0.0.1',
  '--auth-token-env': 'TOKEN',
  '--instruction-files': 'agents',
  '--allow-domain': 'example.com',
  '--base-url': 'http://localhost:1/v1',
};
const takesNoValue = (option: string) => {
  try {
    parseArguments(['run', 'x', option], '/tmp');
    return true;
  } catch (error) {
    return !String(error).includes('needs a value');
  }
};

/** Whether `command` accepts `option`: the parser names no rule against it (a conflict with another option still counts as taken). */
function accepts(command: string, option: string): boolean {
  const withOption = takesNoValue(option) ? [option] : [option, sample[option] ?? 'value'];
  try {
    parseArguments([...minimal[command]!, ...withOption], '/tmp');
    return true;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return !/takes only|belongs? to|unknown option|goes with|go with/.test(error.message);
  }
}

describe('help per command', () => {
  it.each(Object.keys(minimal))('%s --help names every option it takes', (command) => {
    const help = commandUsage(command);
    expect(help).toMatch(new RegExp(`^Usage:\\n {2}agent-team ${command}\\b`));
    const taken = knownOptions.filter((option) => accepts(command, option));
    expect(taken.length, command).toBeGreaterThan(0);
    for (const option of taken) expect(help, `${command} ${option}`).toMatch(new RegExp(`${option}\\b`));
  });

  it('mcp takes and shows the same flags as the other commands that run agents', () => {
    const help = commandUsage('mcp');
    for (const option of ['--allow-network-command', '--allow-domain', '--instruction-files', '--no-hooks', '--trust']) {
      expect(accepts('mcp', option), option).toBe(true);
      expect(help).toContain(option);
    }
  });

  it('prints only the command\u2019s help through the CLI, and everything for --help alone', async () => {
    const mcp = await startCli(world.cliPath, ['mcp', '--help'], {}).exited;
    expect(mcp.code).toBe(0);
    expect(mcp.stdout).toContain('agent-team mcp');
    expect(mcp.stdout).toContain('--allow-domain');
    expect(mcp.stdout).not.toContain('agent-team serve');
    expect(mcp.stdout).toContain('Exit codes:');
    const all = await startCli(world.cliPath, ['--help'], {}).exited;
    expect(all.stdout).toContain('agent-team serve');
    expect(all.stdout).toContain('agent-team mcp');
  });
});

describe('one folder per command', () => {
  it('refuses two --workspace instead of silently taking one of them', () => {
    for (const command of ['run', 'agents', 'runs', 'mcp']) {
      expect(() => parseArguments([...minimal[command]!, '--workspace', '/a', '--workspace', '/b'], '/tmp'), command).toThrow(
        '--workspace is given twice (/a and /b): agents work in one folder',
      );
    }
  });
});
