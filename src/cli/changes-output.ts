/** How proposed changes and their application read on a terminal. */
import type { ApplyReport } from '../engine/changes/apply.js';
import type { ChangeSet } from '../engine/changes/change-set.js';
import { describeLink } from '../engine/workspace/path-rules.js';

type Output = { write(text: string): void };

export function printChanges(changeSets: readonly ChangeSet[], output: Output, willApply: boolean): void {
  if (changeSets.length === 0) return;
  output.write('\nProposed changes:\n');
  for (const changeSet of changeSets) {
    for (const file of changeSet.snapshot().files) {
      const notes = [
        file.requiresApproval ? 'sensitive: needs explicit approval' : '',
        file.overlapsWith.length > 0 ? `overlaps with task ${file.overlapsWith.join(', ')}` : '',
      ].filter(Boolean);
      // A link is shown with where it leads: `vsc/tasks.json -> .vscode/tasks.json` is what is changed.
      output.write(`\n[${changeSet.taskId} ${changeSet.role}] ${describeLink(file.path, file.target)} (+${file.added} −${file.removed})${notes.length ? ` — ${notes.join('; ')}` : ''}\n`);
      output.write(file.diff.endsWith('\n') ? file.diff : `${file.diff}\n`);
    }
  }
  if (!willApply) output.write('\nNothing was written. Run again with --apply to apply these changes.\n');
}

export function printApplyReport(report: ApplyReport, output: Output): void {
  for (const file of report.files) output.write(`${file.outcome}: ${file.path}${file.message ? ` — ${file.message}` : ''}\n`);
}
