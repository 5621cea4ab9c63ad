/** The arguments of `agent-team undo`: what it takes, and the usage errors (exit 2). */
import { describe, expect, it } from 'vitest';
import { UsageError, parseArguments } from '../../src/cli/arguments.js';

describe('undo arguments', () => {
  it('parses the run, --file (repeatable), --force, --json and --workspace', () => {
    expect(parseArguments(['undo', 't3'], '/here')).toEqual({
      command: 'undo',
      runId: 't3',
      workspace: '/here',
      files: [],
      force: false,
      json: false,
    });
    expect(parseArguments(['undo', 't3', '--file', 'a.ts', '--file=b.ts', '--force', '--json', '--workspace', '/w'], '/here')).toEqual({
      command: 'undo',
      runId: 't3',
      workspace: '/w',
      files: ['a.ts', 'b.ts'],
      force: true,
      json: true,
    });
  });

  it.each([
    [['undo'], '"undo" needs one run id'],
    [['undo', 't1', 't2'], 'needs one run id, not 2 words'],
    [['undo', 't1', '--take', 't2'], '"undo" takes only --workspace, --file, --force and --json, not --take'],
    [['undo', 't1', '--show'], 'not --show'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArguments(argv, '/here')).toThrow(UsageError);
    expect(() => parseArguments(argv, '/here')).toThrow(message);
  });
});
