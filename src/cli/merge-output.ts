/** How a file several tasks change reads on a terminal: each task's change as it would land, or the conflict with both sides. */
import { computeHunks, describeConflicts, formatUnifiedDiff, type MergePlan, type MergeStep, numberHunks } from '../engine/index.js';
import { colorDiff, writeRegion } from './changes-output.js';
import { terminalSafe } from './terminal-text.js';

type Output = { write(text: string): void };

/**
 * A blocked plan's conflict: the sides, each region with both of them between markers, and how to pick.
 * `runId` names the run in the commands it suggests.
 */
export function printMergeConflict(plan: MergePlan, output: Output, runId: string): void {
  const step = plan.steps.at(-1);
  if (!step) return;
  if (step.refused !== undefined) {
    output.write(`${terminalSafe(`conflict: ${plan.path} — ${step.refused} Nothing was written to ${plan.path}.`)}\n`);
    return;
  }
  if (!step.conflict) return;
  const regions = step.conflict.regions;
  output.write(
    `${terminalSafe(`conflict: ${plan.path} — ${describeConflicts(regions)} changed by both ${step.labels.current} and ${step.labels.proposed}; nothing was written to ${plan.path}.`)}\n`,
  );
  for (const region of regions) writeRegion(plan.path, region, step.labels, output);
  const sides = [...step.labels.current.replace(/^task /, '').split(', task '), step.taskId].filter((side) => side !== 'on disk');
  const take = sides.map((taskId) => `--take ${taskId}`).join(' or ');
  output.write(
    `${terminalSafe(`  Pick a side: agent-team apply ${runId} --file ${plan.path} ${take || '--take <taskId>'} (that task's side of each conflict; every other change still lands), or --conflict-markers to write both sides between markers and edit them by hand. agent-team apply ${runId} --show shows the merge.`)}\n`,
  );
}

/**
 * `--show`: each task's change to the file as it would be applied, rebased onto the earlier ones; a conflict with both sides.
 * `numbered`: whether a step's diff is its task's own proposal, whose hunks `--hunk` takes by number (`@@ … @@ hunk 2`). Default: none is.
 */
export function printMergePlan(
  plan: MergePlan,
  output: Output,
  colors: boolean,
  numbered: (step: MergeStep) => boolean = () => false,
): void {
  for (const step of plan.steps) {
    const heading = `[${step.taskId}] ${plan.path}${step.labels.current === 'on disk' ? '' : ` — rebased onto ${step.labels.current}`}`;
    output.write(`\n${terminalSafe(heading)}\n`);
    if (step.refused !== undefined) {
      output.write(`${terminalSafe(`  cannot be merged: ${step.refused}`)}\n`);
      continue;
    }
    if (step.conflict && !step.conflict.settledBy) {
      output.write(
        `${terminalSafe(`  conflict: ${describeConflicts(step.conflict.regions)} changed by both ${step.labels.current} and ${step.labels.proposed}; nothing of ${plan.path} is written until you pick.`)}\n`,
      );
      for (const region of step.conflict.regions) writeRegion(plan.path, region, step.labels, output);
      continue;
    }
    if (step.conflict?.settledBy)
      output.write(`${terminalSafe(`  ${describeConflicts(step.conflict.regions)} changed by both: settled by ${describeSide(step)}.`)}\n`);
    const diff = terminalSafe(numbered(step) ? numberHunks(stepDiff(plan.path, step)) : stepDiff(plan.path, step));
    output.write(colors ? colorDiff(diff) : diff);
  }
}

function describeSide(step: MergeStep): string {
  const side = step.conflict?.settledBy;
  if (side === 'markers') return 'writing both sides between conflict markers';
  return `taking ${side === 'current' ? step.labels.current : step.labels.proposed}'s side`;
}

/** The step's change as a unified diff, from what the earlier steps made. */
function stepDiff(path: string, step: MergeStep): string {
  if (step.after === null) return '';
  const diff = formatUnifiedDiff(path, step.before === null, computeHunks(path, step.before, step.after));
  return diff.endsWith('\n') ? diff : `${diff}\n`;
}
