/**
 * B1 at growing sizes: time per delegation in a run of N tasks (N / 10 user requests, each a coordinator
 * that hands work to 9 researchers, so the sizes are whole: 10 tasks = one request). Small sizes are
 * repeated in fresh teams until about `minTasks` tasks have run, and the median run is taken: a run of
 * 10 tasks lasts about a millisecond, and one sample of that is noise. A warm-up of `minTasks` tasks
 * first: V8 keeps optimizing the loop for thousands of delegations, and a curve whose small sizes ran
 * on colder code than its large ones would show the JIT, not the engine. No forced garbage collection
 * between runs: V8 shrinks the heap after one, and the next short run paid for growing it again (2-3×
 * the time per delegation at 10 and 1,000 tasks); garbage collected as the runs go is the steady state.
 */
import { ScriptedModel, type ScriptStep } from '../../src/engine/testing/scripted-model.js';
import { coordinatorStep, researcherAnswer } from '../b1-delegation-overhead.js';
import { median, now } from '../support/stats.js';
import { assertNoWarnings, createBenchTeam } from '../support/team-fixture.js';

const fanOut = 9;
const tasksPerRequest = fanOut + 1;

export interface DelegationPoint {
  tasks: number;
  /** Wall time per delegation, median over the runs. */
  perDelegationUs: number;
  /** Process CPU time (all threads, GC included) per delegation, over all runs. */
  cpuPerDelegationUs: number;
  runs: number;
}

/** One run of `tasks` tasks in a fresh team: wall time per delegation, µs, and the CPU it took. */
async function runOnce(tasks: number): Promise<{ perDelegationUs: number; cpuUs: number; delegations: number }> {
  const requests = Math.max(1, Math.round(tasks / tasksPerRequest));
  const coordinator = new ScriptedModel(new Array<ScriptStep>(requests * 2).fill(coordinatorStep(fanOut)), { recordCalls: false });
  const researcher = new ScriptedModel(new Array<ScriptStep>(requests * fanOut).fill(researcherAnswer), { recordCalls: false });
  const bench = createBenchTeam({ modelFor: (role) => (role === 'coordinator' ? coordinator : researcher) });
  bench.taskManager.onEvent(() => undefined); // as in the extension: every event has a listener
  try {
    const cpuStart = process.cpuUsage();
    const start = now();
    for (let index = 0; index < requests; index++) {
      const { task } = await bench.team.delegate({ prompt: `Where do we parse dates? (${index})` });
      if (task.status !== 'completed') throw new Error(`request ${index} ended ${task.status}: ${task.error ?? ''}`);
    }
    const wallMs = now() - start;
    const cpu = process.cpuUsage(cpuStart);
    assertNoWarnings(bench);
    const delegations = requests * fanOut;
    if (bench.taskManager.list().length !== requests * tasksPerRequest) throw new Error(`expected ${requests * tasksPerRequest} tasks`);
    return { perDelegationUs: (wallMs * 1000) / delegations, cpuUs: cpu.user + cpu.system, delegations };
  } finally {
    await bench.close();
  }
}

export async function delegationCurve(sizes: readonly number[], minTasks: number, log: (line: string) => void): Promise<DelegationPoint[]> {
  await runOnce(minTasks); // warm-up: compiled code, lazily built schemas
  const points: DelegationPoint[] = [];
  for (const tasks of sizes) {
    const runs = Math.max(1, Math.ceil(minTasks / tasks));
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await runOnce(tasks));
    const cpuUs = results.reduce((sum, result) => sum + result.cpuUs, 0);
    const delegations = results.reduce((sum, result) => sum + result.delegations, 0);
    const point = {
      tasks,
      perDelegationUs: median(results.map((result) => result.perDelegationUs)),
      cpuPerDelegationUs: cpuUs / delegations,
      runs,
    };
    log(
      `C1 B1: ${tasks.toLocaleString('en-US')} tasks (${runs} run${runs === 1 ? '' : 's'}): ${point.perDelegationUs.toFixed(1)} µs a delegation (CPU ${point.cpuPerDelegationUs.toFixed(1)})`,
    );
    points.push(point);
  }
  return points;
}
