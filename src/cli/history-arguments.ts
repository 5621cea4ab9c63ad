/**
 * The arguments of the commands over the run history: `agent-team runs [--workspace <dir>] [--json]` and
 * `agent-team apply <runId> [--workspace <dir>] [--file <path>]… [--branch <name>] [--show] [--take <taskId>]
 * [--conflict-markers] [--force] [--json]`. Apart from
 * the run command's parser (arguments.ts) because they share none of its options.
 */
import type { ApplyArguments, RunsArguments } from './argument-types.js';
import { UsageError } from './usage-error.js';

export interface ParsedOptions {
  values: ReadonlyMap<string, string>;
  repeated: ReadonlyMap<string, string[]>;
  flags: ReadonlySet<string>;
  words: readonly string[];
  workspace: string;
}

export function historyCommandArguments(command: 'runs' | 'apply', parsed: ParsedOptions): RunsArguments | ApplyArguments {
  const { values, repeated, flags, words, workspace } = parsed;
  const allowedValues = command === 'runs' ? ['--workspace'] : ['--workspace', '--branch', '--take'];
  const allowedFlags = command === 'runs' ? ['--json'] : ['--json', '--force', '--show', '--conflict-markers'];
  const allowedRepeated = command === 'runs' ? [] : ['--file'];
  const extra = [
    ...[...values.keys()].filter((name) => !allowedValues.includes(name)),
    ...[...repeated.keys()].filter((name) => !allowedRepeated.includes(name)),
    ...[...flags].filter((flag) => !allowedFlags.includes(flag)),
  ];
  if (extra.length > 0) {
    throw new UsageError(
      command === 'runs'
        ? `"runs" takes only --workspace and --json, not ${extra.join(', ')}`
        : `"apply" takes only --workspace, --file, --branch, --show, --take, --conflict-markers, --force and --json, not ${extra.join(', ')}`,
    );
  }
  const json = flags.has('--json');
  if (command === 'runs') {
    if (words.length > 0)
      throw new UsageError(`"runs" takes no words ("${words.join(' ')}"): agent-team runs [--workspace <dir>] [--json]`);
    return { command, workspace, json };
  }
  if (words.length !== 1)
    throw new UsageError(
      `"apply" needs one run id${words.length > 1 ? `, not ${words.length} words` : ''}: agent-team apply <runId> (agent-team runs lists them)`,
    );
  const branch = values.get('--branch');
  const take = values.get('--take');
  const show = flags.has('--show');
  const conflictMarkers = flags.has('--conflict-markers');
  if (take !== undefined && conflictMarkers)
    throw new UsageError('--take and --conflict-markers are two ways to settle a conflict: choose one');
  if (branch !== undefined && (show || take !== undefined || conflictMarkers))
    throw new UsageError('--show, --take and --conflict-markers go with the working tree, not --branch');
  if (show && (take !== undefined || conflictMarkers))
    throw new UsageError('--show writes nothing: it shows the conflicts; settle them without --show');
  return {
    command,
    runId: words[0]!,
    workspace,
    files: repeated.get('--file') ?? [],
    ...(branch !== undefined ? { branch } : {}),
    json,
    ...(flags.has('--force') ? { force: true } : {}),
    ...(show ? { show } : {}),
    ...(take !== undefined ? { take } : {}),
    ...(conflictMarkers ? { conflictMarkers } : {}),
  };
}
