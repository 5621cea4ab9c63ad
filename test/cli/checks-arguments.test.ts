/** `agent-team checks`, and run's `--checks`, `--no-checks` and `--fix-until-green`, parsed. */
import { describe, expect, it } from 'vitest';
import { parseArguments, UsageError } from '../../src/cli/arguments.js';

describe('checks arguments', () => {
  it('agent-team checks takes --workspace and --json only', () => {
    expect(parseArguments(['checks', '--json', '--workspace', '/w'], '/here')).toEqual({ command: 'checks', workspace: '/w', json: true });
    expect(() => parseArguments(['checks', '--trust'], '/here')).toThrow(
      new UsageError('"checks" takes only --workspace and --json, not --trust'),
    );
  });

  it('run: --checks, --no-checks, and --fix-until-green implying the checks', () => {
    expect(parseArguments(['run', '--checks', 'task'], '/here')).toMatchObject({ checks: true });
    expect(parseArguments(['run', '--no-checks', 'task'], '/here')).toMatchObject({ checks: false });
    expect(parseArguments(['run', '--fix-until-green', '2', 'task'], '/here')).toMatchObject({ checks: true, fixUntilGreen: 2 });
    expect(parseArguments(['run', 'task'], '/here')).not.toHaveProperty('checks');
    expect(() => parseArguments(['run', '--checks', '--no-checks', 'task'], '/here')).toThrow(
      '--checks and --no-checks cannot be used together',
    );
    expect(() => parseArguments(['run', '--no-checks', '--fix-until-green', '1', 'task'], '/here')).toThrow(
      '--fix-until-green needs the checks',
    );
    expect(() => parseArguments(['run', '--fix-until-green', '11', 'task'], '/here')).toThrow(UsageError);
    expect(() => parseArguments(['mcp', '--checks'], '/here')).toThrow('--checks belongs to "run", not "mcp"');
  });
});
