/** The arguments of `agent-team runs` and `agent-team apply`: what each takes, and the usage errors (exit 2). */
import { describe, expect, it } from 'vitest';
import { UsageError, parseArguments } from '../../src/cli/arguments.js';

describe('runs and apply arguments', () => {
  it('parses runs and apply with their options', () => {
    expect(parseArguments(['runs', '--json'], '/here')).toEqual({ command: 'runs', workspace: '/here', json: true });
    expect(parseArguments(['apply', 't3', '--file', 'a.ts', '--file=b.ts', '--branch', 'x/y', '--workspace', '/w'], '/here')).toEqual({
      command: 'apply',
      runId: 't3',
      workspace: '/w',
      files: ['a.ts', 'b.ts'],
      branch: 'x/y',
      json: false,
    });
    expect(parseArguments(['apply', 't3', '--force'], '/here')).toMatchObject({ command: 'apply', runId: 't3', force: true });
  });

  it('takes --force on run only with --resume or --continue (a foreign run to go on with)', () => {
    expect(parseArguments(['run', '--resume', 't3', '--force'], '/here')).toMatchObject({ command: 'run', resumeRun: 't3', force: true });
    expect(parseArguments(['run', '--continue', 't3', '--force', 'More'], '/here')).toMatchObject({
      command: 'run',
      continueRun: 't3',
      force: true,
    });
    expect(parseArguments(['run', '--continue', 't3', 'More'], '/here')).not.toHaveProperty('force');
  });

  it.each([
    [['apply'], 'needs one run id'],
    [['apply', 't1', 't2'], 'needs one run id, not 2 words'],
    [
      ['apply', 't1', '--model', 'x'],
      '"apply" takes only --workspace, --file, --branch, --show, --take, --conflict-markers, --hunk, --reject-hunk, --force and --json, not --model',
    ],
    [['runs', 't1'], '"runs" takes no words'],
    [['runs', '--file', 'a'], '"runs" takes only --workspace and --json, not --file'],
    [['run', '--branch', 'x', 'task'], '--branch belongs to "apply", not "run"'],
    [['run', '--force', 'task'], '--force goes with --resume or --continue'],
    [['runs', '--force'], '"runs" takes only --workspace and --json, not --force'],
    [['agents', '--force'], '"agents" takes only --workspace'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArguments(argv, '/here')).toThrow(UsageError);
    expect(() => parseArguments(argv, '/here')).toThrow(message);
  });
});
