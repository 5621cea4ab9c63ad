/**
 * `agent-team undo <runId>`: puts back what the run's accepts wrote (`run --apply`, `agent-team apply`,
 * Accept in VS Code), from the restore points in its run log (engine/runs/checkpoints/): each file's content
 * before, byte for byte; created files deleted, deleted ones back. All or nothing: a file changed on disk
 * since is refused, named, and nothing at all is written, unless `--force`. The undo is a restore point
 * of its own, so running the command again undoes the undo. `--file` limits it to those files. A foreign
 * run (its log does not verify as the user's: the paths and contents in it may be anyone's) needs
 * `--force`, as for `apply` and `--resume`; its paths are confined to the workspace whatever it says.
 * Exit codes: 0 done (or nothing to do), 1 refused or a file failed, 2 no such run, a bad argument, a foreign run.
 */
import path from 'node:path';
import {
  ConfigurationError,
  describeForeign,
  restoredPaths,
  restorePointRecordTypes,
  undoAccepted,
  type UndoOutcome,
  WorkspaceBytes,
} from '../engine/index.js';
import { exitCodes } from './exit-codes.js';
import { existingRunLog } from './history-run.js';
import { runHistoryDirectory } from './run-history.js';
import { RunLocks } from './run-locks.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';
import type { UndoArguments } from './undo-arguments.js';

type Output = { write(text: string): void };

export async function undoCommand(args: UndoArguments, output: { stdout: Output; stderr: Output }): Promise<number> {
  const warn = (message: string) => output.stderr.write(`agent-team: ${terminalSafe(message)}\n`);
  const workspaceRoot = path.resolve(args.workspace);
  const runLog = await existingRunLog(workspaceRoot, warn);
  if (!runLog)
    throw new ConfigurationError(`${workspaceRoot} has no run history (${runHistoryDirectory}): there is no run ${args.runId} to undo.`);
  // The run's log is appended to: a process still working on the run would interleave its lines with these.
  const locks = new RunLocks(path.join(workspaceRoot, ...runHistoryDirectory.split('/')), warn);
  try {
    locks.claim(args.runId);
    const contents = await runLog.read(args.runId, { only: new Set(restorePointRecordTypes) });
    if (!contents) throw new ConfigurationError(`There is no run ${args.runId} in ${runHistoryDirectory}. agent-team runs lists the runs.`);
    if (contents.signature.status === 'foreign') {
      if (!args.force)
        throw new ConfigurationError(
          `Run ${args.runId} is foreign: ${describeForeign(contents.signature)}. Its restore points are not used: the files and contents it names may not be yours. If you know where it came from, run again with --force.`,
        );
      warn(`Run ${args.runId} is foreign: ${describeForeign(contents.signature)}. Undoing it anyway (--force).`);
    }
    const bytes = new WorkspaceBytes(workspaceRoot);
    const paths = chosenPaths(args, restoredPaths(contents.restorePoints), bytes);
    const outcome = await undoAccepted(
      { runId: args.runId, points: contents.restorePoints, ...(paths ? { paths } : {}), force: args.force },
      bytes,
      runLog,
    );
    report(outcome, args, args.json ? output.stderr : output.stdout);
    if (args.json) output.stdout.write(`${terminalSafeJson(jsonOf(outcome, args.runId))}\n`);
    return outcome.status === 'refused' || (outcome.status === 'done' && outcome.failed.length > 0)
      ? exitCodes.failed
      : exitCodes.completed;
  } finally {
    locks.releaseAll();
    await runLog.close();
  }
}

/** `--file` paths as the restore points name them; one no accept of the run wrote is an error naming those it did. */
function chosenPaths(args: UndoArguments, written: readonly string[], bytes: WorkspaceBytes): ReadonlySet<string> | undefined {
  if (args.files.length === 0) return undefined;
  const chosen = new Set<string>();
  for (const file of args.files) {
    let relative: string;
    try {
      relative = bytes.relative(path.resolve(args.workspace, file));
    } catch {
      throw new ConfigurationError(`--file ${file} is outside the workspace.`);
    }
    if (!written.includes(relative))
      throw new ConfigurationError(
        `No accepted change of run ${args.runId} wrote ${file}. Its accepts wrote: ${written.join(', ') || 'nothing'}.`,
      );
    chosen.add(relative);
  }
  return chosen;
}

function report(outcome: UndoOutcome, args: UndoArguments, out: Output): void {
  const write = (line: string) => out.write(`${terminalSafe(line)}\n`);
  if (outcome.status === 'nothing') return write(`Run ${args.runId}: nothing to undo (${outcome.why}).`);
  if (outcome.status === 'refused') {
    write(`Nothing was ${outcome.direction === 'undo' ? 'undone' : 'redone'}; every file was left as it is. Refused:`);
    for (const file of outcome.refused) write(`  ${file.path}: ${file.reason}`);
    if (outcome.refused.some((file) => file.forceable))
      write(`To write over the changes made since: agent-team undo ${args.runId} --force`);
    return;
  }
  const verb = outcome.direction === 'undo' ? 'undone' : 'redone (the undo taken back)';
  for (const file of outcome.files)
    write(
      `${verb}: ${file.path} (${file.action === 'restored' ? 'content put back' : file.action === 'deleted' ? 'deleted: the accept created it' : 'created again'})${file.forced ? ' — written over a change made since (--force)' : ''}`,
    );
  for (const file of outcome.refused) write(`not ${outcome.direction === 'undo' ? 'undone' : 'redone'}: ${file.path}: ${file.reason}`);
  for (const file of outcome.failed) write(`failed: ${file.path}: ${file.reason}`);
  if (!outcome.recorded) write('This undo could not be recorded in the run log: it cannot be taken back with agent-team undo.');
  else
    write(
      outcome.direction === 'undo'
        ? `To take this undo back (put the accepted content back): agent-team undo ${args.runId}`
        : `To undo the accepted changes again: agent-team undo ${args.runId}`,
    );
}

function jsonOf(outcome: UndoOutcome, runId: string): unknown {
  if (outcome.status === 'nothing') return { runId, outcome: 'nothing', why: outcome.why };
  if (outcome.status === 'refused') return { runId, outcome: 'refused', direction: outcome.direction, refused: outcome.refused };
  return {
    runId,
    outcome: outcome.direction === 'undo' ? 'undone' : 'redone',
    files: outcome.files,
    refused: outcome.refused,
    failed: outcome.failed,
    recorded: outcome.recorded,
  };
}
