/**
 * B1, delegation overhead: what the engine itself costs per delegation when the model costs nothing.
 *
 * A delegation is one `Agent` call: a subagent task starts, runs its own agent loop (one model turn here),
 * ends, and its result goes back to the caller as the tool result. The figure: 1,000 user requests, each a
 * coordinator that hands work to 10 researchers in one turn (foreground, as a fan-out does) and then
 * answers; total time / 10,000 delegations, the coordinators' own runs included. Also shown: a request
 * with a single delegation (coordinator, one researcher, three model turns in all), per request.
 *
 * Models are `ScriptedModel`s with no latency and no call recording, so the time is the engine's. Every
 * task event goes to a listener, the task manager keeps its default concurrency (4), and history is kept
 * as in the extension: a cost that grows with history shows in the first and last rounds. The figure is
 * the median of 10 rounds; the best round is shown too (the least disturbed by other work on the machine).
 */
import type { ContextPolicy } from '../src/engine/agent/compaction/context-policy.js';
import type { ModelRequest } from '../src/engine/model/types.js';
import { ScriptedModel, type ScriptStep } from '../src/engine/testing/scripted-model.js';
import { median, now } from './support/stats.js';
import { assertNoWarnings, type BenchTeam, createBenchTeam } from './support/team-fixture.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

/** The target per delegation, µs (issue 28: 100; issue 43: 40). */
export const delegationTargetUs = 40;

export const researcherAnswer = 'The dates are parsed in src/date.ts:12 with the local time zone; see parseDate.';

function lastMessageHasToolResult(request: ModelRequest): boolean {
  return request.messages.at(-1)?.content.some((part) => part.type === 'tool-result') ?? false;
}

/** First turn: `fanOut` Agent calls; second turn (after their results): the answer. */
export function coordinatorStep(fanOut: number): ScriptStep {
  const calls = Array.from({ length: fanOut }, (_, index) =>
    ScriptedModel.toolCall('Agent', {
      subagent_type: 'researcher',
      description: `Find date parsing ${index}`,
      prompt: `Find where dates are parsed in area ${index} and say which time zone is used.`,
    }),
  );
  return (request) =>
    lastMessageHasToolResult(request) ? 'The researchers found it: src/date.ts:12 parses dates in the local time zone.' : calls;
}

interface DelegationFigures {
  /** Wall time per delegation: the median round, and the best (least disturbed by other work on the machine). */
  perDelegationUs: number;
  bestRoundUs: number;
  /** Process CPU time (all threads, GC included) per delegation, over all rounds. */
  cpuPerDelegationUs: number;
  /** Per delegation in the first and the last round: growth with history shows here. */
  firstRoundUs: number;
  lastRoundUs: number;
  /** Task events (snapshots) delivered to a listener per delegation. */
  eventsPerDelegation: number;
  tasks: number;
}

/**
 * Runs `rounds` × `requestsPerRound` user requests of `fanOut` delegations each, after `warmUp` unmeasured
 * ones, and times each round. `context`: the agents' context windows, so every loop runs the meter (B18).
 */
export async function measureDelegations(
  rounds: number,
  requestsPerRound: number,
  fanOut: number,
  warmUp: number,
  context?: ContextPolicy,
): Promise<DelegationFigures> {
  const total = rounds * requestsPerRound + warmUp;
  const coordinator = new ScriptedModel(new Array<ScriptStep>(total * 2).fill(coordinatorStep(fanOut)), { recordCalls: false });
  const researcher = new ScriptedModel(new Array<ScriptStep>(total * fanOut).fill(researcherAnswer), { recordCalls: false });
  const bench = createBenchTeam({
    modelFor: (role) => (role === 'coordinator' ? coordinator : researcher),
    ...(context ? { context } : {}),
  });
  let events = 0;
  bench.taskManager.onEvent(() => {
    events += 1;
  });
  try {
    for (let index = 0; index < warmUp; index++) await request(bench, index, fanOut);
    events = 0;
    const roundTimes: number[] = [];
    const cpuStart = process.cpuUsage();
    for (let round = 0; round < rounds; round++) {
      const start = now();
      for (let index = 0; index < requestsPerRound; index++) await request(bench, index, fanOut);
      roundTimes.push(((now() - start) * 1000) / (requestsPerRound * fanOut));
    }
    const cpu = process.cpuUsage(cpuStart);
    assertNoWarnings(bench);
    if (coordinator.remainingSteps !== 0 || researcher.remainingSteps !== 0)
      throw new Error('the scripted models were not called as planned');
    const delegations = rounds * requestsPerRound * fanOut;
    return {
      perDelegationUs: median(roundTimes),
      bestRoundUs: Math.min(...roundTimes),
      cpuPerDelegationUs: (cpu.user + cpu.system) / delegations,
      firstRoundUs: roundTimes[0],
      lastRoundUs: roundTimes[roundTimes.length - 1],
      eventsPerDelegation: events / delegations,
      tasks: bench.taskManager.list().length,
    };
  } finally {
    await bench.close();
  }
}

async function request(bench: BenchTeam, index: number, fanOut: number): Promise<void> {
  const { task } = await bench.team.delegate({ prompt: `Where do we parse dates? (${index})` });
  if (task.status !== 'completed') throw new Error(`request ${index} ended ${task.status}: ${task.error ?? ''}`);
  if (bench.taskManager.children(task.id).length !== fanOut) throw new Error(`request ${index} did not delegate ${fanOut} times`);
}

export const delegationOverhead: Benchmark = {
  id: 'B1',
  title: 'delegation overhead',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const rounds = context.quick ? 5 : 10;
    const requestsPerRound = context.quick ? 10 : 100;
    const fanOut = 10;
    const fanned = await measureDelegations(rounds, requestsPerRound, fanOut, context.quick ? 10 : 100);
    const single = await measureDelegations(rounds, requestsPerRound * 2, 1, context.quick ? 10 : 200);
    const delegations = (rounds * requestsPerRound * fanOut).toLocaleString('en-US');
    const describe = (figures: DelegationFigures) =>
      `${figures.perDelegationUs.toFixed(1)} µs (best round ${figures.bestRoundUs.toFixed(1)}; CPU ${figures.cpuPerDelegationUs.toFixed(1)})`;
    context.log(
      `B1: ${delegations} delegations: ${describe(fanned)}; first round ${fanned.firstRoundUs.toFixed(1)}, last ${fanned.lastRoundUs.toFixed(1)}`,
    );
    return {
      measurements: [
        {
          name: `time per delegation (${delegations}, 10 per request)`,
          value: fanned.perDelegationUs,
          unit: 'µs',
          target: delegationTargetUs,
          baseline: `single delegation ${single.perDelegationUs.toFixed(1)} µs a request`,
          display: describe(fanned),
        },
        {
          name: 'per request with a single delegation (2 tasks, 3 turns)',
          value: single.perDelegationUs,
          unit: 'µs',
          display: describe(single),
        },
      ],
      details: {
        rounds,
        fanOut: { requestsPerRound, perRequest: fanOut, ...fanned },
        single: { requestsPerRound: requestsPerRound * 2, perRequest: 1, ...single },
      },
    };
  },
};
