/** `--hunk` / `--reject-hunk` as the parser reads them: file before the last colon, numbers and ranges, contradictions and bad values refused. */
import { describe, expect, it } from 'vitest';
import { parseArguments, UsageError } from '../../src/cli/arguments.js';

const apply = (...options: string[]) => parseArguments(['apply', 'r1', ...options], '/tmp');

describe('apply --hunk', () => {
  it('reads numbers, ranges, repeated values and paths with colons', () => {
    expect(
      apply('--hunk', 'src/a.ts:3,1', '--hunk', 'src/a.ts:5-6', '--hunk', 'c:/odd.txt:2', '--reject-hunk', 'src/a.ts:2'),
    ).toMatchObject({
      hunks: [
        { path: 'src/a.ts', numbers: [1, 3, 5, 6] },
        { path: 'c:/odd.txt', numbers: [2] },
      ],
      rejectHunks: [{ path: 'src/a.ts', numbers: [2] }],
    });
  });

  it.each([
    [['--hunk', 'a.ts'], 'it needs a file and hunk numbers'],
    [['--hunk', 'a.ts:0'], 'they are numbered from 1'],
    [['--hunk', 'a.ts:3-1'], 'they are numbered from 1'],
    [['--hunk', 'a.ts:x'], '"x" is not a hunk number'],
    [['--hunk', 'a.ts:1-999999'], 'more than 10000 hunks'],
    [['--hunk', 'a.ts:1', '--reject-hunk', 'a.ts:1'], 'hunk 1 is given to both --hunk and --reject-hunk'],
    [['--hunk', 'a.ts:1', '--show'], 'not with --branch, --show'],
    [['--hunk', 'a.ts:1', '--file', 'a.ts'], 'not with --branch, --show'],
  ])('refuses %j', (options, message) => {
    expect(() => apply(...options)).toThrow(UsageError);
    expect(() => apply(...options)).toThrow(message);
  });

  it('belongs to apply alone', () => {
    expect(() => parseArguments(['run', 'a task', '--hunk', 'a.ts:1'], '/tmp')).toThrow('--hunk belongs to "apply"');
  });
});
