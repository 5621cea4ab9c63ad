/**
 * The arguments of the commands over the run history: `agent-team runs [--workspace <dir>] [--json]` and
 * `agent-team apply <runId> [--workspace <dir>] [--file <path>]… [--branch <name>] [--show] [--take <taskId>]
 * [--conflict-markers] [--hunk <file>:<n>[,<n>…]]… [--reject-hunk <file>:<n>[,<n>…]]… [--force] [--json]`. Apart from
 * the run command's parser (arguments.ts) because they share none of its options.
 */
import type { ApplyArguments, RunsArguments } from './argument-types.js';
import { parseHunkChoices, refuseContradictions } from './hunk-arguments.js';
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
  const allowedRepeated = command === 'runs' ? [] : ['--file', '--hunk', '--reject-hunk'];
  const extra = [
    ...[...values.keys()].filter((name) => !allowedValues.includes(name)),
    ...[...repeated.keys()].filter((name) => !allowedRepeated.includes(name)),
    ...[...flags].filter((flag) => !allowedFlags.includes(flag)),
  ];
  if (extra.length > 0) {
    throw new UsageError(
      command === 'runs'
        ? `"runs" takes only --workspace and --json, not ${extra.join(', ')}`
        : `"apply" takes only --workspace, --file, --branch, --show, --take, --conflict-markers, --hunk, --reject-hunk, --force and --json, not ${extra.join(', ')}`,
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
  const hunks = parseHunkChoices('--hunk', repeated.get('--hunk') ?? []);
  const rejectHunks = parseHunkChoices('--reject-hunk', repeated.get('--reject-hunk') ?? []);
  refuseContradictions(hunks, rejectHunks);
  if (
    (hunks.length > 0 || rejectHunks.length > 0) &&
    (branch !== undefined || show || take !== undefined || conflictMarkers || repeated.has('--file'))
  )
    throw new UsageError(
      '--hunk and --reject-hunk decide single hunks in the working tree: not with --branch, --show, --take, --conflict-markers or --file (the file is in the hunk)',
    );
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
    ...(hunks.length > 0 ? { hunks } : {}),
    ...(rejectHunks.length > 0 ? { rejectHunks } : {}),
  };
}
