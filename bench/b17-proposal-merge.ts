/**
 * B17, merging proposals: 10 tasks each proposed edits to one 5,000-line file, all read from the same
 * base; `planFileMerge` (what `agent-team apply` and the review run before writing anything) merges them
 * in order, three-way and exact: the first lands as proposed, each next one onto what the earlier made
 * (src/engine/changes/three-way.ts). Each task changes three places of its own, spread over the file, so
 * every later merge has the earlier tasks' edits on "disk" around its own, and none conflicts.
 *
 * The figure: the time of the whole plan (10 proposals merged), median of rounds. The same-run floor: the
 * work no merge can skip, the file split into lines and joined again once per step.
 */
import { ChangeSet } from '../src/engine/changes/change-set.js';
import { splitLinesKeepingEnds } from '../src/engine/changes/lines.js';
import { planFileMerge } from '../src/engine/changes/merge-plan.js';
import { median, now, percentile } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

const path = 'src/big-module.ts';
const fileLines = 5_000;
const tasks = 10;
const editsPerTask = 3;

function baseFile(): string {
  const lines: string[] = [];
  for (let line = 0; line < fileLines; line++) lines.push(`export const value${line} = computeSomething(${line}, 'label ${line % 97}');\n`);
  return lines.join('');
}

/** Task `task`'s proposal: three places of its own (a line changed, one added, one removed), apart from the others'. */
function proposalOf(base: string, task: number): string {
  const lines = splitLinesKeepingEnds(base);
  const stride = Math.floor(fileLines / (tasks * editsPerTask));
  for (let edit = editsPerTask - 1; edit >= 0; edit--) {
    const at = (edit * tasks + task) * stride + 10;
    if (edit === 0) lines[at] = `export const value${at} = computeSomethingElse(${at}); // task ${task}\n`;
    else if (edit === 1) lines.splice(at, 0, `// task ${task} adds a line here\n`);
    else lines.splice(at, 1);
  }
  return lines.join('');
}

function changeSets(base: string): ChangeSet[] {
  return Array.from({ length: tasks }, (_, task) => {
    const changeSet = new ChangeSet({ taskId: `t${task + 1}`, role: 'refactorer' });
    changeSet.propose(path, { baseContent: base, proposedContent: proposalOf(base, task) });
    // The user accepted every hunk: the merge takes accepted hunks only.
    changeSet.accept();
    return changeSet;
  });
}

/** The floor: what any merge must do at each step, the file as lines and back. */
function floorMs(base: string): number {
  const start = now();
  let text = base;
  for (let step = 0; step < tasks; step++) text = splitLinesKeepingEnds(text).join('');
  if (text.length !== base.length) throw new Error('the floor changed the file');
  return now() - start;
}

export const proposalMerge: Benchmark = {
  id: 'B17',
  title: 'merging proposals',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const rounds = context.quick ? 5 : 60;
    const base = baseFile();
    const sets = changeSets(base);
    const merges: number[] = [];
    const floors: number[] = [];
    for (let round = 0; round < rounds + 3; round++) {
      const start = now();
      const plan = planFileMerge(path, sets, base);
      const elapsed = now() - start;
      const floor = floorMs(base);
      if (plan.blocked || plan.steps.length !== tasks)
        throw new Error(
          `the ${tasks} proposals did not merge cleanly: ${JSON.stringify(plan.steps.map((step) => step.refused ?? step.conflict?.regions.length ?? 0))}`,
        );
      // The first three rounds warm the code up; they are not counted.
      if (round < 3) continue;
      merges.push(elapsed);
      floors.push(floor);
    }
    const mergeMs = median(merges);
    context.log(`B17: ${mergeMs.toFixed(2)} ms a merge of ${tasks} proposals (floor ${median(floors).toFixed(2)} ms)`);
    return {
      measurements: [
        {
          name: `one merge: ${tasks} tasks' proposals to one ${fileLines.toLocaleString('en-US')}-line file (median of ${rounds})`,
          value: mergeMs,
          unit: 'ms',
          target: 20,
          display: `${mergeMs.toFixed(2)} ms (p95 ${percentile(merges, 0.95).toFixed(2)}; ${(mergeMs / tasks).toFixed(2)} ms a proposal)`,
          baseline: `floor ${median(floors).toFixed(2)} ms (the file split and joined once a step)`,
        },
      ],
      details: { rounds, fileLines, tasks, editsPerTask, mergeMs: merges, floorMs: floors },
    };
  },
};
