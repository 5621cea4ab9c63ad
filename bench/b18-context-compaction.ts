/**
 * B18, the context meter and compaction: what they cost the engine.
 *
 * (a) The meter per turn, beside B1 in the same run: B1's delegations (10 a request, one researcher turn
 * each, the coordinator's two turns) measured with the meter off and on (every agent's window known, so
 * each turn counts the request, estimates the next one and checks the threshold), alternating rounds so
 * that the machine's state weighs on both alike. The figure: the difference per model turn (1.2 turns a
 * delegation), the median of interleaved pairs with its 95 % interval (bench/support/confidence-interval.ts),
 * judged on the interval's upper end. Target: within noise of B1, i.e. under the width of B1's own interval
 * (without the meter) per turn.
 *
 * (b) Engine time per compaction, beside the model call: a conversation of 60 turns (a Read of 4 KB each,
 * about 60k tokens) compacted with a scripted summary model that answers at once, so the time is the
 * engine's (splitting, rendering the summary request, replacing the conversation, events). A real summary
 * call sends the rendered request (its size is shown) and takes seconds; the engine's part is beside it.
 * Target ≤ 1 ms (issue 43).
 */
import { ConversationRecorder } from '../src/engine/agent/conversation-recorder.js';
import { Compactor } from '../src/engine/agent/compaction/compactor.js';
import { contextPolicy } from '../src/engine/agent/compaction/context-policy.js';
import { ContextWindowTable } from '../src/engine/model/context-windows.js';
import type { ModelMessage } from '../src/engine/model/types.js';
import { ScriptedModel } from '../src/engine/testing/scripted-model.js';
import { measureDelegations } from './b1-delegation-overhead.js';
import { asCost, describeInterval, medianInterval, pairedDifferences } from './support/confidence-interval.js';
import { median, now } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

/** Model turns per delegation in B1's fan-out: one researcher turn, and the coordinator's two per ten. */
const turnsPerDelegation = 1.2;

function longConversation(turns: number): ModelMessage[] {
  const result = 'export function parseDate(text: string): Date { return new Date(text); }\n'.repeat(55);
  const messages: ModelMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'Find where dates are parsed and fix the time zone.' }] },
  ];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading file ${turn}.` },
        { type: 'tool-call', toolCallId: `c${turn}`, toolName: 'Read', input: { file_path: `src/file-${turn}.ts` } },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool-result', toolCallId: `c${turn}`, toolName: 'Read', output: result }] });
  }
  return messages;
}

async function timeCompactions(count: number, turns: number): Promise<{ perCompactionUs: number; requestCharacters: number }> {
  const model = new ScriptedModel(new Array(count).fill('Dates are parsed in src/file-1.ts; the time zone is local. Next: make it UTC.'), {
    recordCalls: false,
  });
  const times: number[] = [];
  let requestCharacters = 0;
  const base = longConversation(turns);
  const signal = new AbortController().signal;
  for (let index = 0; index < count; index++) {
    const run = new ConversationRecorder(
      base.map((message) => ({ ...message, content: [...message.content] }) as ModelMessage),
      { onEvent: () => {} },
    );
    const compactor = new Compactor(model, run, { windowTokens: 200_000 });
    const start = now();
    const outcome = await compactor.compact('manual', signal);
    times.push((now() - start) * 1000);
    if (!outcome.compacted) throw new Error(`the conversation was not compacted: ${outcome.reason}`);
    requestCharacters = JSON.stringify(run.messages).length;
  }
  return { perCompactionUs: median(times), requestCharacters };
}

export const contextCompaction: Benchmark = {
  id: 'B18',
  title: 'context meter and compaction',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    // Many short pairs rather than a few long ones: the interval narrows with the pairs, and a pair's two
    // rounds run close together, under the same load.
    const pairs = context.quick ? 3 : 24;
    const requestsPerRound = context.quick ? 10 : 40;
    const policy = contextPolicy(new ContextWindowTable({}, 1_000_000));
    const off: number[] = [];
    const on: number[] = [];
    // One warm-up round each, unmeasured: the first rounds pay for compiling the loop.
    await measureDelegations(1, requestsPerRound, 10, 0);
    await measureDelegations(1, requestsPerRound, 10, 0, policy);
    for (let pair = 0; pair < pairs; pair++) {
      // Which side goes first alternates: drift on the machine weighs on both alike.
      const withFirst = pair % 2 === 1;
      if (withFirst) on.push((await measureDelegations(1, requestsPerRound, 10, context.quick ? 2 : 10, policy)).perDelegationUs);
      off.push((await measureDelegations(1, requestsPerRound, 10, context.quick ? 2 : 10)).perDelegationUs);
      if (!withFirst) on.push((await measureDelegations(1, requestsPerRound, 10, context.quick ? 2 : 10, policy)).perDelegationUs);
    }
    const perTurn = pairedDifferences(on, off).map((difference) => difference / turnsPerDelegation);
    const interval = medianInterval(perTurn);
    const offInterval = medianInterval(off);
    const compactions = await timeCompactions(context.quick ? 5 : 50, 60);
    context.log(
      `B18: B1 per delegation ${median(off).toFixed(1)} µs without the meter, ${median(on).toFixed(1)} µs with it; the meter per turn ${describeInterval(interval, 'µs', { digits: 2 })}; ${compactions.perCompactionUs.toFixed(0)} µs per compaction`,
    );
    const cost = asCost(interval);
    return {
      measurements: [
        {
          name: `the meter per model turn (B1 with it − without, ${pairs} interleaved pairs; judged on the interval's upper end)`,
          value: cost.high,
          unit: 'µs',
          // Within noise of B1: the interval's upper end under B1's own spread of a round.
          ...(context.quick ? {} : { target: (offInterval.high - offInterval.low) / turnsPerDelegation }),
          display: `${describeInterval(cost, 'µs', { label: 'median', digits: 2 })}`,
          baseline: `B1 without the meter ${median(off).toFixed(1)} µs a delegation (95% CI ${offInterval.low.toFixed(1)}–${offInterval.high.toFixed(1)}; with it ${median(on).toFixed(1)})`,
        },
        {
          name: 'engine time per compaction (60 turns, ~60k tokens), beside a summary call of seconds',
          value: compactions.perCompactionUs / 1000,
          unit: 'ms',
          target: 1,
          display: `${(compactions.perCompactionUs / 1000).toFixed(2)} ms (conversation after it: ${compactions.requestCharacters.toLocaleString('en-US')} characters)`,
          baseline: 'the summary model call itself: seconds with a provider (here a scripted model answering at once)',
        },
      ],
      details: { pairs, requestsPerRound, withoutMeterUs: off, withMeterUs: on, meterPerTurnUs: perTurn, interval, ...compactions },
    };
  },
};
