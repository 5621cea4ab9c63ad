/**
 * B8, lean coordinator: when the coordinator fans out to 10 subagents, does any subagent's transcript leak
 * into its context? Each researcher (scripted, a few ms per turn like any model) reads three large files
 * over four turns (~40 KB of transcript each) and answers with a ~500-character result. The coordinator's
 * last request is measured against what it should hold: its own instruction and tool definitions, the
 * user's prompt, what it wrote itself (its tool calls), and the 10 results. Tokens are estimated as
 * characters / 4 on both sides. 1.05 leaves room for the result headers; a leaked transcript would be ×10.
 *
 * Three ways to fan out, each measured: foreground `Agent` calls in one turn; background calls collected
 * with `TaskOutput`; background calls the CLI waits for (`awaitBackgroundTasks`: results come as notices).
 */
import type { ModelMessage, ModelRequest } from '../src/engine/model/types.js';
import { ScriptedModel, type ScriptStep } from '../src/engine/testing/scripted-model.js';
import { assertNoWarnings, type BenchTeam, createBenchTeam, folderToolbox } from './support/team-fixture.js';
import { withTempFolder } from './support/temp-folder.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

const subagents = 10;
const userPrompt =
  'Review how dates are handled across the code base: parsing, formatting, time zones, and the tests. Report the bugs with file:line references.';

type Variant = 'foreground' | 'background-task-output' | 'background-awaited';

const variantNames: Record<Variant, string> = {
  foreground: 'foreground Agent calls',
  'background-task-output': 'background + TaskOutput',
  'background-awaited': 'background, awaited (CLI: notices)',
};

function result(index: number): string {
  return `Area ${index}: ${'the parser at src/date/parse.ts:42 builds local-time Dates from UTC strings; '.repeat(7)}`.slice(0, 500);
}

/** Three turns of reading big files, then the result. */
const researcherStep: ScriptStep = (request: ModelRequest) => {
  const turn = Math.ceil(request.messages.length / 2);
  const index = Number(/area (\d+)/.exec(firstText(request.messages))?.[1] ?? -1);
  if (turn <= 3)
    return [
      ScriptedModel.text(`Reading part ${turn} of area ${index}. `.repeat(20)),
      ScriptedModel.toolCall('Read', { file_path: `big${turn}.ts` }),
    ];
  return result(index);
};

function firstText(messages: ModelMessage[]): string {
  const part = messages[0]?.content[0];
  return part?.type === 'text' ? part.text : '';
}

function agentCall(index: number, background: boolean) {
  return ScriptedModel.toolCall('Agent', {
    subagent_type: 'researcher',
    description: `Review dates, area ${index}`,
    prompt: `Review date handling in area ${index} of the code base (src/area${index}). Report bugs with file:line references, at most 500 characters.`,
    ...(background ? { run_in_background: true } : {}),
  });
}

/** `subagentIds` lists the tasks the coordinator started (read off the task manager, not the ack texts). */
function coordinatorScript(variant: Variant, subagentIds: () => string[]): ScriptStep[] {
  const indexes = Array.from({ length: subagents }, (_, index) => index);
  const final = 'Summary of the ten reviews: the parser builds local-time Dates from UTC strings (src/date/parse.ts:42).';
  if (variant === 'foreground') return [indexes.map((index) => agentCall(index, false)), final];
  if (variant === 'background-awaited') return [indexes.map((index) => agentCall(index, true)), 'Started the ten reviews.', final];
  return [
    indexes.map((index) => agentCall(index, true)),
    () => subagentIds().map((taskId) => ScriptedModel.toolCall('TaskOutput', { task_id: taskId })),
    final,
  ];
}

/** Characters of a request: the system prompt, the tool definitions as JSON, and every message part. */
function requestChars(request: Omit<ModelRequest, 'signal'>): number {
  return request.system.length + JSON.stringify(request.tools).length + messageChars(request.messages, () => true);
}

/** Characters of message parts, where `keep` says which count. */
function messageChars(messages: ModelMessage[], keep: (message: ModelMessage, part: ModelMessage['content'][number]) => boolean): number {
  let chars = 0;
  for (const message of messages) {
    for (const part of message.content) {
      if (!keep(message, part)) continue;
      if (part.type === 'text') chars += part.text.length;
      else if (part.type === 'tool-call') chars += part.toolName.length + JSON.stringify(part.input).length;
      else if (part.type === 'tool-result') chars += part.output.length;
    }
  }
  return chars;
}

async function measure(variant: Variant, root: string) {
  const subagentIds = () =>
    bench.taskManager
      .list()
      .filter((task) => task.parentId !== null)
      .map((task) => task.id);
  const coordinator = new ScriptedModel(coordinatorScript(variant, subagentIds));
  // A few milliseconds a turn, as any model takes: the coordinator's next turn starts before they end.
  const researcher = new ScriptedModel(new Array<ScriptStep>(subagents * 4).fill(researcherStep), { recordCalls: false, latencyMs: 3 });
  const bench: BenchTeam = createBenchTeam({
    modelFor: (role) => (role === 'coordinator' ? coordinator : researcher),
    toolbox: folderToolbox(root),
    taskManager: { maxConcurrent: subagents + 1 },
  });
  try {
    const { task } = await bench.team.delegate({ prompt: userPrompt, awaitBackgroundTasks: variant === 'background-awaited' });
    if (task.status !== 'completed') throw new Error(`${variant}: the coordinator ended ${task.status}: ${task.error ?? ''}`);
    const children = bench.taskManager.children(task.id);
    if (
      children.length !== subagents ||
      children.some((child) => child.output !== result(Number(/area (\d+)/.exec(child.description)?.[1])))
    ) {
      throw new Error(`${variant}: expected ${subagents} subagents with their results`);
    }
    if (coordinator.remainingSteps !== 0)
      throw new Error(`${variant}: the coordinator was called ${coordinator.callTotal} times, not as scripted`);
    assertNoWarnings(bench);
    const last = coordinator.calls.at(-1)!.request;
    const actual = requestChars(last);
    const results = children.reduce((sum, child) => sum + (child.output ?? '').length, 0);
    const expected =
      last.system.length +
      JSON.stringify(last.tools).length +
      userPrompt.length +
      messageChars(last.messages, (message) => message.role === 'assistant') +
      results;
    const transcripts = children.reduce((sum, child) => sum + JSON.stringify(bench.taskManager.transcript(child.id)).length, 0);
    return {
      actualTokens: Math.round(actual / 4),
      expectedTokens: Math.round(expected / 4),
      ratio: actual / expected,
      subagentTranscriptTokens: Math.round(transcripts / 4),
    };
  } finally {
    await bench.close();
  }
}

const bigFiles = Object.fromEntries(
  [1, 2, 3].map((part) => [
    `big${part}.ts`,
    Array.from(
      { length: 120 },
      (_, line) => `export const value${part}_${line} = parseDate('2024-01-${(line % 28) + 1}T00:00:00Z'); // line ${line}`,
    ).join('\n'),
  ]),
);

export const leanCoordinator: Benchmark = {
  id: 'B8',
  title: 'lean coordinator',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const measurements: Measurement[] = [];
    const details: Record<string, unknown> = {};
    await withTempFolder(bigFiles, async (root) => {
      for (const variant of Object.keys(variantNames) as Variant[]) {
        const figures = await measure(variant, root);
        context.log(
          `B8 ${variant}: last request ~${figures.actualTokens} tokens, expected ~${figures.expectedTokens}; subagent transcripts ~${figures.subagentTranscriptTokens}`,
        );
        measurements.push({
          name: `last request / expected, ${variantNames[variant]}`,
          value: figures.ratio,
          unit: '',
          target: 1.05,
          display: `${figures.ratio.toFixed(3)} (${figures.actualTokens.toLocaleString('en-US')} / ${figures.expectedTokens.toLocaleString('en-US')} tokens; transcripts ${figures.subagentTranscriptTokens.toLocaleString('en-US')})`,
        });
        details[variant] = figures;
      }
    });
    return { measurements, details };
  },
};
