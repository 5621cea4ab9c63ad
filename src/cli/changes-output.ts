/** How proposed changes and their application read on a terminal. */
import {
  type ApplyReport,
  type ChangeSet,
  type ChangeSetRegistry,
  describeLink,
  describeOverlaps,
  type MergeConflict,
  type MergeLabels,
  settle,
} from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

type Output = { write(text: string): void };

/**
 * Whether to colour the terminal output: only on a TTY, never when NO_COLOR is set (no-color.org), always
 * when FORCE_COLOR is set to anything but 0.
 */
export function useColor(output: { isTTY?: boolean }, environment: Readonly<Record<string, string | undefined>>): boolean {
  if (environment.NO_COLOR) return false;
  if (environment.FORCE_COLOR !== undefined && environment.FORCE_COLOR !== '' && environment.FORCE_COLOR !== '0') return true;
  return output.isTTY === true;
}

/** A unified diff with additions green, deletions red and hunk headers cyan. */
export function colorDiff(diff: string): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return `\x1b[1m${line}\x1b[22m`;
      if (line.startsWith('+')) return `\x1b[32m${line}\x1b[39m`;
      if (line.startsWith('-')) return `\x1b[31m${line}\x1b[39m`;
      if (line.startsWith('@@')) return `\x1b[36m${line}\x1b[39m`;
      return line;
    })
    .join('\n');
}

/** `changes`: the registry the sets belong to; with it, an overlap says whether the proposals fit together. Default: not said. */
export function printChanges(
  changeSets: readonly ChangeSet[],
  output: Output,
  willApply: boolean,
  colors = false,
  changes?: ChangeSetRegistry,
): void {
  if (changeSets.length === 0) return;
  output.write('\nProposed changes:\n');
  for (const changeSet of changeSets) {
    for (const file of changeSet.snapshot().files) {
      const notes = [
        file.requiresApproval ? 'sensitive: needs explicit approval' : '',
        file.overlapsWith.length === 0
          ? ''
          : changes
            ? describeOverlaps(changes, changeSet.taskId, file.path).replace(/^, /, '')
            : `overlaps with task ${file.overlapsWith.join(', ')}`,
      ].filter(Boolean);
      // A link is shown with where it leads: `vsc/tasks.json -> .vscode/tasks.json` is what is changed.
      output.write(
        terminalSafe(
          `\n[${changeSet.taskId} ${changeSet.role}] ${describeLink(file.path, file.target)} (+${file.added} −${file.removed})${notes.length ? ` — ${notes.join('; ')}` : ''}`,
        ) + '\n',
      );
      // The diff is a model's text: made safe before our own colours go on.
      const diff = terminalSafe(file.diff.endsWith('\n') ? file.diff : `${file.diff}\n`);
      output.write(colors ? colorDiff(diff) : diff);
    }
  }
  if (!willApply) output.write('\nNothing was written. Run again with --apply to apply these changes.\n');
}

/** Each file's outcome; a conflict with the disk with both sides of each region it touches. */
export function printApplyReport(report: ApplyReport, output: Output): void {
  for (const file of report.files) {
    output.write(`${terminalSafe(`${file.outcome}: ${file.path}${file.message ? ` — ${file.message}` : ''}`)}\n`);
    for (const region of file.conflicts?.regions ?? []) writeRegion(file.path, region, file.conflicts!.labels, output);
  }
}

/** One conflict region: where it is in the base both sides started from, then both sides between markers. */
export function writeRegion(path: string, region: MergeConflict, labels: MergeLabels, output: Output): void {
  const last = region.baseStart + Math.max(region.baseLines, 1) - 1;
  output.write(`${terminalSafe(`--- ${path}, lines ${region.baseStart}–${last} of the file both started from:`)}\n`);
  output.write(terminalSafe(settle(region, 'markers', labels)));
}
