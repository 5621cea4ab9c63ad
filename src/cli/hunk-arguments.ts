/**
 * `--hunk <file>:<n>[,<n>…]` and `--reject-hunk <file>:<n>[,<n>…]` of `agent-team apply`: hunks of a
 * proposed file by the numbers `apply --show` prints (`@@ … @@ hunk 2`), 1-based, a range `2-4` for
 * several. The file is what precedes the last colon, so a path with a colon of its own still reads.
 */
import type { HunkChoice } from './argument-types.js';
import { UsageError } from './usage-error.js';

/** The most hunk numbers one value may name (a range included): a typo like `1-99999999` must not allocate. */
const maxNumbers = 10_000;

/** Every value of one option, one choice per file (values naming the same file are joined). */
export function parseHunkChoices(option: '--hunk' | '--reject-hunk', values: readonly string[]): HunkChoice[] {
  const byPath = new Map<string, Set<number>>();
  for (const value of values) {
    const choice = parseHunkChoice(option, value);
    const numbers = byPath.get(choice.path) ?? new Set<number>();
    for (const number of choice.numbers) numbers.add(number);
    byPath.set(choice.path, numbers);
  }
  return [...byPath].map(([path, numbers]) => ({ path, numbers: [...numbers].sort((a, b) => a - b) }));
}

function parseHunkChoice(option: string, value: string): HunkChoice {
  const colon = value.lastIndexOf(':');
  const path = colon < 0 ? '' : value.slice(0, colon);
  const list = colon < 0 ? '' : value.slice(colon + 1);
  const refuse = (why: string) =>
    new UsageError(
      `${option} ${value}: ${why}; write ${option} <file>:<n>[,<n>…] with the hunk numbers agent-team apply <runId> --show prints`,
    );
  if (path === '' || list === '') throw refuse('it needs a file and hunk numbers');
  const numbers: number[] = [];
  for (const part of list.split(',')) {
    const range = /^(\d{1,6})(?:-(\d{1,6}))?$/.exec(part.trim());
    if (!range) throw refuse(`"${part}" is not a hunk number or a range like 2-4`);
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    if (first < 1 || last < first) throw refuse(`"${part}" is no hunk: they are numbered from 1`);
    if (numbers.length + last - first + 1 > maxNumbers) throw refuse(`more than ${maxNumbers} hunks`);
    for (let number = first; number <= last; number++) numbers.push(number);
  }
  return { path, numbers };
}

/** A hunk both applied and rejected is a contradiction, said before anything is read. */
export function refuseContradictions(accepted: readonly HunkChoice[], rejected: readonly HunkChoice[]): void {
  for (const accept of accepted) {
    const reject = rejected.find((choice) => choice.path === accept.path);
    const both = accept.numbers.filter((number) => reject?.numbers.includes(number));
    if (both.length > 0)
      throw new UsageError(`${accept.path}: hunk ${both.join(', ')} is given to both --hunk and --reject-hunk: choose one for each hunk`);
  }
}
