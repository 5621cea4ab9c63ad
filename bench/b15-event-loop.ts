/**
 * B15, the editor stays responsive: the extension host's event loop is VS Code's too (every extension's
 * events, the editor's requests to them), so a long synchronous stretch of ours freezes more than our view.
 * The window of bench/b15/extension-window.ts (the host's real parts, in this process) opens on a history
 * of 1,000 rows (200 runs of 5 tasks, one with a transcript of megabytes) and a workspace with a big file
 * (20,000 lines, 1.3 MB); a coordinator then starts 50 subagents in the background: 40 researchers stream
 * a turn, read a file and stream an answer; 10 refactorers stream and propose an edit to the big file twice
 * (each edit a diff of the whole file), then answer; 60 chunks a turn, 12-38 ms apart (bench/b15/subagent-model.ts).
 * Meanwhile the user works the sidebar: every 250 ms another task is selected (a streaming subagent, and
 * every fourth time the task with the large transcript), and every second the view is hidden and shown
 * again (a fresh snapshot of every row). The rows update as the tasks run, the run log records them and
 * the proposals are saved.
 *
 * `monitorEventLoopDelay` (1 ms resolution) watches three stretches: the loop with nothing of ours running
 * (the same-run baseline: what the machine's load alone does to a 1 ms timer), the window opening (the
 * history loaded, the first snapshot sent) and the team's run, whose CPU time is reported beside its wall
 * time. Target: p99 ≤ 10 ms while the team runs. Quick mode: small sizes, no target.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import { ScriptedModel } from '../src/engine/testing/scripted-model.js';
import { type ExtensionWindow, openWindow } from './b15/extension-window.js';
import { type HistorySize, largeTranscriptTaskId, writeHistory, writeWorkspace } from './b15/history-fixture.js';
import { describeLoopDelay, type LoopDelay, resolutionMs, watchLoopDelay } from './b15/loop-delay.js';
import { type StreamShape, SubagentModel, subagentPrompt } from './b15/subagent-model.js';
import { assertNoWarnings } from './support/team-fixture.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

const targetP99Ms = 10;

interface Sizes {
  history: HistorySize;
  bigFileLines: number;
  researchers: number;
  refactorers: number;
  shape: Omit<StreamShape, 'bigFileLines'>;
  baselineMs: number;
}

const fullSizes: Sizes = {
  history: { runs: 200, largeTranscriptEntries: 800, largeResultLength: 4_000 },
  bigFileLines: 20_000,
  researchers: 40,
  refactorers: 10,
  shape: { chunks: 60, gapMs: 25 },
  baselineMs: 3_000,
};

const quickSizes: Sizes = {
  history: { runs: 20, largeTranscriptEntries: 40, largeResultLength: 1_000 },
  bigFileLines: 2_000,
  researchers: 4,
  refactorers: 2,
  shape: { chunks: 10, gapMs: 10 },
  baselineMs: 300,
};

function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) return resolve();
      if (performance.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(check, 5);
    };
    check();
  });
}

/** The user at the sidebar while the team runs: selections and the view hidden and shown again. */
function startUser(window: ExtensionWindow, largeTaskId: string): { stop(): void; selections: number; reopenings: number } {
  const state = { selections: 0, reopenings: 0, stop: () => undefined as void };
  const select = setInterval(() => {
    state.selections++;
    const running = window.bench.taskManager.list().filter((task) => task.parentId !== null && task.status === 'running');
    const taskId = state.selections % 4 === 0 || running.length === 0 ? largeTaskId : running[state.selections % running.length].id;
    window.view.send({ type: 'select-task', taskId });
  }, 250);
  const reopen = setInterval(() => {
    state.reopenings++;
    window.view.setVisible(false);
    window.view.setVisible(true);
  }, 1_000);
  state.stop = () => {
    clearInterval(select);
    clearInterval(reopen);
  };
  return state;
}

function delayFigure(name: string, delay: LoopDelay, target: number | undefined, note: string): Measurement {
  return { name, value: delay.p99Ms, unit: 'ms', ...(target === undefined ? {} : { target }), display: describeLoopDelay(delay), note };
}

export const editorStaysResponsive: Benchmark = {
  id: 'B15',
  title: 'the editor stays responsive',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const sizes = context.quick ? quickSizes : fullSizes;
    const base = await mkdtemp(nodePath.join(tmpdir(), 'agent-team-b15-'));
    const storage = nodePath.join(base, 'storage');
    const root = nodePath.join(base, 'workspace');
    const subagents = sizes.researchers + sizes.refactorers;
    try {
      await writeHistory(nodePath.join(storage, 'runs'), sizes.history, Date.now());
      await writeWorkspace(root, sizes.bigFileLines);
      const shape: StreamShape = { ...sizes.shape, bigFileLines: sizes.bigFileLines };
      const researcher = new SubagentModel('researcher', shape);
      const refactorer = new SubagentModel('refactorer', shape);
      const calls = Array.from({ length: subagents }, (_, index) => {
        const role = index % (subagents / sizes.refactorers) === 0 ? 'refactorer' : 'researcher';
        return ScriptedModel.toolCall('Agent', {
          subagent_type: role,
          description: `Subagent ${index}`,
          prompt: subagentPrompt(index, role),
          run_in_background: true,
        });
      });
      // In turns of 16 calls, the agent loop's limit per turn; each background start returns at once.
      const turns = Array.from({ length: Math.ceil(calls.length / 16) }, (_, index) => calls.slice(index * 16, index * 16 + 16));
      const coordinator = new ScriptedModel([...turns, 'Started them all; waiting for their results.', 'All of them are done.'], {
        recordCalls: false,
      });
      const modelFor = (role: string) => (role === 'coordinator' ? coordinator : role === 'refactorer' ? refactorer : researcher);

      // The same-run baseline: the loop with nothing of ours on it, on the same machine under the same load.
      const stopBaseline = watchLoopDelay();
      await new Promise((resolve) => setTimeout(resolve, sizes.baselineMs));
      const baseline = stopBaseline();

      const stopOpening = watchLoopDelay();
      // The coordinator holds no slot while it only waits (B2): one slot per subagent.
      const window = openWindow({ storage, root, modelFor, maxConcurrent: subagents });
      try {
        window.view.send({ type: 'ready' });
        await window.historyLoaded;
        await waitFor(() => window.sent.byType.has('snapshot'), 'the first snapshot');
        const opening = stopOpening();
        const historyRows = window.bench.taskManager.list().length;

        const stopRun = watchLoopDelay();
        const cpuStart = process.cpuUsage();
        const user = startUser(window, largeTranscriptTaskId(sizes.history));
        const { task } = await window.bench.team.delegate({ prompt: `Start ${subagents} subagents.`, awaitBackgroundTasks: true });
        user.stop();
        const run = stopRun();
        const cpu = process.cpuUsage(cpuStart);
        const runCpuMs = (cpu.user + cpu.system) / 1000;

        if (task.status !== 'completed') throw new Error(`the coordinator ended ${task.status}: ${task.error ?? ''}`);
        const children = window.bench.taskManager.children(task.id);
        const unfinished = children.filter((child) => child.status !== 'completed');
        if (children.length !== subagents || unfinished.length > 0)
          throw new Error(`${children.length} subagents, ${unfinished.length} not completed (${unfinished[0]?.error ?? ''})`);
        const proposals = window.changes.list().length;
        if (proposals !== sizes.refactorers)
          throw new Error(`${proposals} change sets, expected one per refactorer (${sizes.refactorers})`);
        assertNoWarnings(window.bench);
        if (window.problems.length > 0) throw new Error(`the window reported: ${window.problems[0]}`);

        const sent = {
          messages: window.sent.messages,
          megabytes: window.sent.characters / 1e6,
          byType: Object.fromEntries(window.sent.byType),
        };
        context.log(
          `B15: idle ${describeLoopDelay(baseline)}; opening (${historyRows} rows) ${describeLoopDelay(opening)}; team run (${subagents} subagents, ${researcher.chunksStreamed + refactorer.chunksStreamed} chunks, ${user.selections} selections, ${user.reopenings} reopenings, ${sent.messages} messages / ${sent.megabytes.toFixed(1)} MB to the webview) ${describeLoopDelay(run)} over ${(run.wallMs / 1000).toFixed(1)} s, CPU ${(runCpuMs / 1000).toFixed(1)} s`,
        );
        const quick = context.quick;
        return {
          measurements: [
            delayFigure(
              `event-loop delay while ${subagents} subagents stream and the sidebar's ${historyRows} history rows update`,
              run,
              quick ? undefined : targetP99Ms,
              `target on p99; ${resolutionMs} ms timer, so idle ≈ 1`,
            ),
            delayFigure(
              'the same loop with no team running (same-run baseline, same load)',
              baseline,
              undefined,
              'nothing of ours on the loop',
            ),
            delayFigure(
              `opening the window: ${historyRows} history rows loaded, the first snapshot sent`,
              opening,
              undefined,
              'once per window',
            ),
          ],
          details: {
            sizes,
            historyRows,
            baseline,
            opening,
            run,
            runCpuMs,
            user: { selections: user.selections, reopenings: user.reopenings },
            sent,
            chunks: researcher.chunksStreamed + refactorer.chunksStreamed,
          },
        };
      } finally {
        await window.close();
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },
};
