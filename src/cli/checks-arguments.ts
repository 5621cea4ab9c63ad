/**
 * The arguments about checks: `agent-team checks [--workspace <dir>] [--json]`, and `run`'s `--checks`,
 * `--no-checks` and `--fix-until-green <n>`.
 */
import type { ChecksArguments } from './argument-types.js';
import type { ParsedOptions } from './history-arguments.js';
import { wholeNumber } from './number-options.js';
import { UsageError } from './usage-error.js';

/** Rounds `--fix-until-green` allows at most. */
export const maxFixRounds = 10;

export function checksCommandArguments(parsed: ParsedOptions): ChecksArguments {
  const extra = [
    ...[...parsed.values.keys()].filter((name) => name !== '--workspace'),
    ...parsed.repeated.keys(),
    ...[...parsed.flags].filter((flag) => flag !== '--json'),
  ];
  if (extra.length > 0 || parsed.words.length > 0)
    throw new UsageError(`"checks" takes only --workspace and --json${extra.length > 0 ? `, not ${extra.join(', ')}` : ''}`);
  return { command: 'checks', workspace: parsed.workspace, json: parsed.flags.has('--json') };
}

/** `run`'s checks options; on another command they are a usage error. */
export function checksRunOptions(
  command: string,
  values: ReadonlyMap<string, string>,
  flags: ReadonlySet<string>,
): { checks?: boolean; fixUntilGreen?: number } {
  const given = ['--checks', '--no-checks']
    .filter((flag) => flags.has(flag))
    .concat(values.has('--fix-until-green') ? ['--fix-until-green'] : []);
  if (given.length === 0) return {};
  if (command !== 'run') throw new UsageError(`${given.join(', ')} belong${given.length === 1 ? 's' : ''} to "run", not "${command}"`);
  if (flags.has('--checks') && flags.has('--no-checks')) throw new UsageError('--checks and --no-checks cannot be used together: give one');
  const fixUntilGreen = values.has('--fix-until-green') ? wholeNumber(values, '--fix-until-green', 0, 0, maxFixRounds) : undefined;
  if (flags.has('--no-checks') && fixUntilGreen !== undefined && fixUntilGreen > 0)
    throw new UsageError('--fix-until-green needs the checks: it cannot go with --no-checks');
  // Sending work back until the checks pass means running them.
  const checks = flags.has('--no-checks') ? false : flags.has('--checks') || (fixUntilGreen ?? 0) > 0;
  return { checks, ...(fixUntilGreen !== undefined ? { fixUntilGreen } : {}) };
}
