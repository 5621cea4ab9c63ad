/**
 * B16's CLI half: from a chunk leaving the model to its words written to the CLI's output, through what
 * `agent-team run` wires to stdout (src/cli/run-command.ts): the `TerminalView` (a TTY's live tree, or a
 * pipe's lines) or the JSON Lines events (`--json`), fed by the task manager's events, then the run's
 * answer printed at its end. That last line is `printRunEnd`'s, mirrored here as it is not exported.
 * The fake stdout notes when each chunk's marker is first written.
 *
 * Today neither view writes streamed text (both drop `task-text-delta`): the words reach the terminal
 * with the answer, when the run ends, and this figure says how long after they arrived.
 */
import { JsonEventMapper, runEndEvent } from '../../src/cli/json-events.js';
import { TerminalView } from '../../src/cli/terminal-view.js';
import { terminalSafe, terminalSafeJson } from '../../src/cli/terminal-text.js';
import { now } from '../support/stats.js';
import { latenciesOf, StreamingModel } from '../support/streaming-model.js';
import { assertNoWarnings, createBenchTeam } from '../support/team-fixture.js';

export type CliOutputMode = 'tty' | 'json';

/** A stdout that keeps what is written and notes when each chunk's marker first appears in it. */
class TimestampedOutput {
  text = '';
  readonly seenAt = new Map<number, number>();
  readonly isTTY: boolean;
  readonly columns = 120;
  readonly rows = 40;

  constructor(
    private readonly model: StreamingModel,
    mode: CliOutputMode,
  ) {
    this.isTTY = mode === 'tty';
  }

  write(text: string): void {
    const at = now();
    this.text += text;
    for (let index = 0; index < this.model.chunks.length; index++) {
      if (!this.seenAt.has(index) && text.includes(StreamingModel.marker(index))) this.seenAt.set(index, at);
    }
  }
}

/** One streamed answer of `chunkCount` chunks `gapMs` apart: each chunk's latency to stdout, in ms. */
export async function measureCliWords(mode: CliOutputMode, chunkCount: number, gapMs: number): Promise<number[]> {
  const model = new StreamingModel(chunkCount, gapMs);
  const bench = createBenchTeam({ modelFor: () => model });
  const stdout = new TimestampedOutput(model, mode);
  const view = new TerminalView(stdout);
  const mapper = new JsonEventMapper();
  bench.taskManager.onEvent((event) => {
    if (mode === 'json') for (const cliEvent of mapper.map(event)) stdout.write(`${terminalSafeJson(cliEvent)}\n`);
    else view.handle(event);
  });
  try {
    const run = bench.team.delegate({ prompt: 'Explain where dates are parsed.', role: 'researcher' });
    model.begin();
    const { task } = await run;
    if (task.status !== 'completed') throw new Error(`the task ended ${task.status}: ${task.error ?? ''}`);
    if (mode === 'json') {
      stdout.write(`${terminalSafeJson(runEndEvent(task, 'completed'))}\n`);
    } else {
      view.finish();
      stdout.write(`\n${terminalSafe(task.output?.trim() || '(no answer)')}\n`);
    }
    assertNoWarnings(bench);
    return latenciesOf(model, stdout.seenAt);
  } finally {
    await bench.close();
  }
}
