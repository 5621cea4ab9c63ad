/**
 * B12, reply latency: from the user's words reaching the engine to the agent's next model request.
 *
 * - An answer: a task-mode role asks with `AskUser`; the user channel answers on a later turn of the event
 *   loop (as an answer typed in the sidebar or on stdin arrives). Timed from the answer to the request
 *   that carries it.
 * - A message: `AgentTeam.sendMessage` to a researcher whose model turn is in flight; the turn then ends
 *   at once with a `Read` call (answered from memory: no disk in the figure), and the message goes out
 *   with the next request, as the inbox promises. Timed from `sendMessage` to that request.
 *
 * Models are scripted with no latency; each task asks or is told several times in one conversation.
 * The target, 5 ms at p95: the user has just acted and waits for the agent to react; everything between
 * is the engine's bookkeeping (a transcript entry, a status change, a request built), far under what a
 * person can notice, and far under the model's own first token.
 */
import * as z from 'zod';
import type { UserChannel, UserQuestion } from '../src/engine/conversation/user-channel.js';
import { defineTool } from '../src/engine/agent/tool.js';
import type { ModelRequest } from '../src/engine/model/types.js';
import type { RoleFileSource } from '../src/engine/roles/role-file-source.js';
import type { WorkspaceToolbox } from '../src/engine/file-tools/task-tools.js';
import { type HeldStep, ScriptedModel, type ScriptStep } from '../src/engine/testing/scripted-model.js';
import { now, percentile } from './support/stats.js';
import { assertNoWarnings, createBenchTeam } from './support/team-fixture.js';
import { TimedModel } from './support/timed-model.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

const { text, toolCall } = ScriptedModel;

/** One role file: a task-mode role, which gets `AskUser` and `CompleteTask`. */
const roleFiles: RoleFileSource = {
  list: async (directory) => (directory === '.agent-team/agents' ? ['clarifier.md'] : []),
  read: async () =>
    '---\nname: clarifier\ndescription: Asks the user what is unclear.\nmode: task\ntools: [Read]\n---\nYou are the clarifier.',
};

/** `Read` with no disk: the message's path, not the file system, is what is timed. */
const memoryToolbox: WorkspaceToolbox = () => ({
  readOnly: [
    defineTool({
      name: 'Read',
      description: 'Reads a file.',
      inputSchema: z.object({ file_path: z.string() }),
      readOnly: true,
      execute: async (input) => `1\texport const parse = (value: string) => new Date(value); // ${input.file_path}`,
    }),
  ],
  edit: [],
  proposals: async () => [],
});

function lastText(request: ModelRequest): string {
  const last = request.messages.at(-1);
  return last
    ? last.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-result' ? part.output : '')).join('\n')
    : '';
}

/** A step that checks the request carries `expected` before playing `next`. */
function expecting(expected: string, next: ScriptStep): ScriptStep {
  return (request) => {
    if (!lastText(request).includes(expected))
      throw new Error(`the request after the reply did not carry it: ${lastText(request).slice(0, 200)}`);
    return next;
  };
}

/** The latency of each reply: from it to the first request after it. */
function latencies(replyTimes: readonly number[], requestTimes: readonly number[]): number[] {
  let next = 0;
  return replyTimes.map((replyAt) => {
    while (next < requestTimes.length && requestTimes[next] < replyAt) next += 1;
    if (next === requestTimes.length) throw new Error('a reply was never followed by a model request');
    return requestTimes[next] - replyAt;
  });
}

/** `tasks` clarifier tasks, each asking `rounds` questions before it completes. */
export async function measureAnswers(tasks: number, rounds: number): Promise<number[]> {
  const steps: ScriptStep[] = [];
  for (let task = 0; task < tasks; task++) {
    steps.push([toolCall('AskUser', { question: 'Which time zone should dates use? (1)' })]);
    for (let round = 2; round <= rounds; round++)
      steps.push(expecting('The user answered', [toolCall('AskUser', { question: `Which time zone should dates use? (${round})` })]));
    steps.push(expecting('The user answered', [toolCall('CompleteTask', { result: 'Dates use UTC.' })]));
  }
  const model = new TimedModel(new ScriptedModel(steps, { recordCalls: false }));
  const answeredAt: number[] = [];
  const user: UserChannel = {
    ask: (_question: UserQuestion) =>
      new Promise((resolve) =>
        setImmediate(() => {
          answeredAt.push(now());
          resolve('Use UTC everywhere.');
        }),
      ),
  };
  const bench = createBenchTeam({ modelFor: () => model, roleFiles, userChannel: user });
  try {
    await bench.roles.load();
    for (let task = 0; task < tasks; task++) {
      const { task: ended } = await bench.team.delegate({ prompt: `Fix the dates (${task})`, role: 'clarifier' });
      if (ended.status !== 'completed' || ended.output !== 'Dates use UTC.')
        throw new Error(`clarifier ${task} ended ${ended.status}: ${ended.error ?? ended.output ?? ''}`);
    }
    assertNoWarnings(bench);
    if (answeredAt.length !== tasks * rounds) throw new Error(`${answeredAt.length} answers for ${tasks * rounds} questions`);
    return latencies(answeredAt, model.requestTimes);
  } finally {
    await bench.close();
  }
}

/** `tasks` researchers, each told something `rounds` times while a model turn is in flight. */
export async function measureMessages(tasks: number, rounds: number): Promise<number[]> {
  const holds: HeldStep[][] = [];
  const steps: ScriptStep[] = [];
  for (let task = 0; task < tasks; task++) {
    const taskHolds = Array.from({ length: rounds }, (_, round) =>
      ScriptedModel.held([text(`Reading part ${round}…`)], [toolCall('Read', { file_path: `src/part${round}.ts` })]),
    );
    holds.push(taskHolds);
    steps.push(
      taskHolds[0],
      ...taskHolds.slice(1).map((hold) => expecting('Message from the user', hold)),
      expecting('Message from the user', 'Done, with the user’s hints.'),
    );
  }
  const model = new TimedModel(new ScriptedModel(steps, { recordCalls: false }));
  const bench = createBenchTeam({ modelFor: () => model, toolbox: memoryToolbox });
  const sentAt: number[] = [];
  try {
    for (let task = 0; task < tasks; task++) {
      const run = bench.team.delegate({ prompt: `Find the date parser (${task})`, role: 'researcher' });
      for (let round = 0; round < rounds; round++) {
        const hold = holds[task][round];
        await hold.reached;
        const taskId = bench.taskManager.list().at(-1)?.id as string;
        sentAt.push(now());
        bench.team.sendMessage(taskId, `Check part ${round} of the tests as well.`);
        hold.release();
      }
      const { task: ended } = await run;
      if (ended.status !== 'completed') throw new Error(`researcher ${task} ended ${ended.status}: ${ended.error ?? ''}`);
    }
    assertNoWarnings(bench);
    return latencies(sentAt, model.requestTimes);
  } finally {
    await bench.close();
  }
}

function figure(name: string, values: number[]): Measurement {
  const p50 = percentile(values, 0.5);
  const p95 = percentile(values, 0.95);
  return { name, value: p95, unit: 'ms', target: 5, display: `p50 ${p50.toFixed(3)} / p95 ${p95.toFixed(3)} ms`, note: 'target on p95' };
}

export const replyLatency: Benchmark = {
  id: 'B12',
  title: 'reply latency',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const tasks = context.quick ? 2 : 10;
    const rounds = context.quick ? 10 : 20;
    // Warm-up: the first conversations load and compile what later ones reuse.
    await measureAnswers(2, 5);
    await measureMessages(2, 5);
    const answers = await measureAnswers(tasks, rounds);
    const messages = await measureMessages(tasks, rounds);
    const samples = tasks * rounds;
    context.log(
      `B12: answer → request p50 ${percentile(answers, 0.5).toFixed(3)} ms; message → request p50 ${percentile(messages, 0.5).toFixed(3)} ms (${samples} each)`,
    );
    return {
      measurements: [
        figure(`AskUser answer → next model request (${samples})`, answers),
        figure(`sendMessage → next model request (${samples})`, messages),
      ],
      details: { tasks, rounds, answersMs: answers, messagesMs: messages },
    };
  },
};
