/**
 * B11, planner overhead: what the engine costs for a whole planned tree, when the models cost nothing.
 *
 * `AgentTeam.plan` with `maxDepth` 3: at depths 0, 1 and 2 a planner splits its task into 3 parallel
 * sub-tasks (one `SubmitPlan` call, checked against the limits and the roles), and a synthesizer
 * combines their results; at depth 3 each task is done by one researcher. That is 40 plan nodes,
 * 13 planners, 27 researchers and 13 synthesizers: 93 tasks and 53 model turns a tree. The models are
 * `ScriptedModel`s with no latency and no call recording, so the wall time is the engine's. Figure: wall
 * time of a tree / its tasks, median over the trees; the tree's total is shown too.
 *
 * The target, 100 µs a task, is B1's per delegation: every task of the tree is at most one agent turn,
 * and a plan node that only waits for its children should cost less than that, not more.
 */
import type { ModelRequest } from '../src/engine/model/types.js';
import { plannerName, synthesizerName } from '../src/engine/planner/planner-instructions.js';
import { ScriptedModel, type ScriptStep } from '../src/engine/testing/scripted-model.js';
import { median, now, percentile } from './support/stats.js';
import { assertNoWarnings, createBenchTeam } from './support/team-fixture.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

const maxDepth = 3;
const fanOut = 3;
/** Nodes at depths 0…3: 1 + 3 + 9 + 27. */
const planNodes = (fanOut ** (maxDepth + 1) - 1) / (fanOut - 1);
const leaves = fanOut ** maxDepth;
const planners = planNodes - leaves;
/** Plan nodes, planners, leaf agents and one synthesizer a planner. */
const tasksPerTree = planNodes + planners + leaves + planners;
const turnsPerTree = planners + leaves + planners;

/** The planner's task is the user message; each sub-task names its parent, so names stay unique. */
const planStep: ScriptStep = (request: ModelRequest) => {
  const first = request.messages[0]?.content[0];
  const task = first?.type === 'text' ? first.text.replace(/^Plan this task:\s*/, '').slice(0, 60) : 'task';
  return [
    ScriptedModel.toolCall('SubmitPlan', {
      type: 'parallel',
      sub_tasks: Array.from({ length: fanOut }, (_, index) => `${task} / part ${index + 1}`),
    }),
  ];
};

export interface PlanTreeFigures {
  /** Wall time of each tree, ms. */
  treeMs: number[];
}

export async function measurePlanTrees(trees: number, warmUp: number): Promise<PlanTreeFigures> {
  const total = trees + warmUp;
  const planner = new ScriptedModel(new Array<ScriptStep>(total * planners).fill(planStep), { recordCalls: false });
  const researcher = new ScriptedModel(
    new Array<ScriptStep>(total * leaves).fill('Found it: src/date.ts:12 parses dates in the local time zone.'),
    { recordCalls: false },
  );
  const synthesizer = new ScriptedModel(
    new Array<ScriptStep>(total * planners).fill('All parts agree: the parser uses the local time zone.'),
    { recordCalls: false },
  );
  const models = new Map([
    [plannerName, planner],
    [synthesizerName, synthesizer],
  ]);
  const bench = createBenchTeam({ modelFor: (role) => models.get(role) ?? researcher, maxDepth });
  const treeMs: number[] = [];
  try {
    for (let tree = 0; tree < total; tree++) {
      const before = bench.taskManager.list().length;
      const start = now();
      const { task } = await bench.team.plan({ task: `Audit date handling in area ${tree}`, maxDepth, maxSubtasks: fanOut });
      const wall = now() - start;
      if (task.status !== 'completed') throw new Error(`plan ${tree} ended ${task.status}: ${task.error ?? ''}`);
      const made = bench.taskManager.list().length - before;
      if (made !== tasksPerTree) throw new Error(`plan ${tree} made ${made} tasks, expected ${tasksPerTree}`);
      if (tree >= warmUp) treeMs.push(wall);
    }
    assertNoWarnings(bench);
    if (planner.remainingSteps + researcher.remainingSteps + synthesizer.remainingSteps !== 0)
      throw new Error('the scripted models were not called as planned');
    return { treeMs };
  } finally {
    await bench.close();
  }
}

export const plannerOverhead: Benchmark = {
  id: 'B11',
  title: 'planner overhead',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const trees = context.quick ? 5 : 50;
    const { treeMs } = await measurePlanTrees(trees, context.quick ? 2 : 5);
    const perTaskUs = treeMs.map((ms) => (ms * 1000) / tasksPerTree);
    const p50 = median(perTaskUs);
    context.log(
      `B11: ${trees} trees of ${tasksPerTree} tasks (${turnsPerTree} turns): tree p50 ${median(treeMs).toFixed(2)} ms; ${p50.toFixed(1)} µs a task`,
    );
    return {
      measurements: [
        {
          name: `engine time per task, 3-level plan tree (${tasksPerTree} tasks, ${turnsPerTree} turns; ${trees} trees)`,
          value: p50,
          unit: 'µs',
          target: 100,
          display: `${p50.toFixed(1)} µs (best ${Math.min(...perTaskUs).toFixed(1)}, p95 ${percentile(perTaskUs, 0.95).toFixed(1)})`,
        },
        {
          name: 'engine time per tree',
          value: median(treeMs),
          unit: 'ms',
          display: `${median(treeMs).toFixed(2)} ms (p95 ${percentile(treeMs, 0.95).toFixed(2)})`,
        },
      ],
      details: { trees, maxDepth, fanOut, tasksPerTree, turnsPerTree, treeMs },
    };
  },
};
