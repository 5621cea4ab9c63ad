/**
 * `agent-team undo <runId> [--workspace <dir>] [--file <path>]… [--force] [--json]`: the arguments of the
 * undo of a run's accepted changes (undo-command.ts), apart from the run command's parser.
 */
import { UsageError } from './usage-error.js';

export interface UndoArguments {
  command: 'undo';
  runId: string;
  workspace: string;
  /** `--file` (repeatable): only these of the files the run's accepts wrote. Empty: every one. */
  files: string[];
  /** `--force`: write over files changed on disk since, and undo a foreign run's accepts. Default false. */
  force: boolean;
  /** A JSON object with the outcome on stdout; the report on stderr. Default false. */
  json: boolean;
}

/** The command line as arguments.ts splits it (the shape of history-arguments.ts's `ParsedOptions`). */
interface ParsedOptions {
  values: ReadonlyMap<string, string>;
  repeated: ReadonlyMap<string, string[]>;
  flags: ReadonlySet<string>;
  words: readonly string[];
  workspace: string;
}

export function undoArguments(parsed: ParsedOptions): UndoArguments {
  const { values, repeated, flags, words, workspace } = parsed;
  const extra = [
    ...[...values.keys()].filter((name) => name !== '--workspace'),
    ...[...repeated.keys()].filter((name) => name !== '--file'),
    ...[...flags].filter((flag) => flag !== '--force' && flag !== '--json'),
  ];
  if (extra.length > 0) throw new UsageError(`"undo" takes only --workspace, --file, --force and --json, not ${extra.join(', ')}`);
  if (words.length !== 1)
    throw new UsageError(
      `"undo" needs one run id${words.length > 1 ? `, not ${words.length} words` : ''}: agent-team undo <runId> (agent-team runs lists them)`,
    );
  return {
    command: 'undo',
    runId: words[0]!,
    workspace,
    files: repeated.get('--file') ?? [],
    force: flags.has('--force'),
    json: flags.has('--json'),
  };
}
