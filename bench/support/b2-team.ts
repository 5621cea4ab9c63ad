/**
 * B2's team: a scripted coordinator that starts `subagents` researchers in the background (in turns of 16
 * `Agent` calls, the agent loop's limit per turn) and waits for them, over the real file tools. Also the
 * engine alone in that shape: the researchers' model answers at once, with no HTTP and no SDK, so what is
 * left is the engine's own work (`engineAlone`).
 */
import { performance as nodePerformance } from 'node:perf_hooks';
import type { Model, ModelStreamEvent } from '../../src/engine/model/types.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { median } from './stats.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { createWorkspaceToolbox } from '../../src/engine/file-tools/workspace-toolbox.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { type BenchTeam, createBenchTeam } from './team-fixture.js';

/** B2's team, and when its setup is over: a new workspace looks for `rg` on the PATH, which is not a delegation's cost. */
export interface B2Team extends BenchTeam {
  ready: Promise<unknown>;
}

export function b2Team(root: string, subagents: number, researcherModel: Model): B2Team {
  const calls = Array.from({ length: subagents }, (_, index) =>
    ScriptedModel.toolCall('Agent', {
      subagent_type: 'researcher',
      description: `Read notes ${index}`,
      prompt: `Read notes.txt and report what it says (${index}).`,
      run_in_background: true,
    }),
  );
  // In turns of 16 calls, the agent loop's limit per turn; each background start returns at once.
  const turns = Array.from({ length: Math.ceil(calls.length / 16) }, (_, index) => calls.slice(index * 16, index * 16 + 16));
  const coordinator = new ScriptedModel(
    [...turns, 'Started them all; waiting for their results.', 'All of them report: ship it on Friday.'],
    { recordCalls: false },
  );
  const workspace = new NodeWorkspace(root);
  const team = createBenchTeam({
    modelFor: (role) => (role === 'coordinator' ? coordinator : researcherModel),
    toolbox: createWorkspaceToolbox({ workspace, changes: new ChangeSetRegistry() }),
    // Exactly one slot per subagent: the coordinator, only waiting for them, holds none (issue 10). Were it
    // to keep its slot, one subagent would queue and the wall time would double.
    // And room for them all in one run (the default limit of 200 tasks a run would stop C1's 500).
    taskManager: { maxConcurrent: subagents, maxTasksPerRun: Math.max(200, subagents + 1) },
  });
  return { ...team, ready: workspace.searchEngine() };
}

export function delegateAll(team: BenchTeam, subagents: number) {
  return team.team.delegate({ prompt: `Have ${subagents} researchers read notes.txt at once.`, awaitBackgroundTasks: true });
}

/** The researcher's two turns as the mock server answers them (a `Read` of notes.txt, then the answer), at once. */
export const instantResearcher: Model = {
  provider: 'instant',
  modelId: 'instant',
  async *stream(request): AsyncIterable<ModelStreamEvent> {
    if (request.messages.length === 1) {
      yield {
        type: 'tool-call',
        toolCallId: 'call-1',
        toolName: 'Read',
        input: { file_path: 'notes.txt' },
        rawInput: '{"file_path":"notes.txt"}',
      };
      yield { type: 'usage', usage: { inputTokens: 1200, outputTokens: 20 } };
      yield { type: 'finish', stopReason: 'tool-use' };
      return;
    }
    yield { type: 'text-delta', text: 'The notes say: ' };
    yield { type: 'text-delta', text: 'ship it on Friday.' };
    yield { type: 'usage', usage: { inputTokens: 1300, outputTokens: 10 } };
    yield { type: 'finish', stopReason: 'end-turn' };
  },
};

/**
 * The engine's own main-thread time per subagent in B2's shape, the model answering at once: the median of
 * `runs` runs, after one unmeasured run (a process's first runs pay for compiling the engine).
 */
export async function engineAlone(root: string, subagents: number, runs: number): Promise<number> {
  const perSubagent: number[] = [];
  for (let index = 0; index <= runs; index++) {
    const team = b2Team(root, subagents, instantResearcher);
    try {
      await team.ready;
      const loopStart = nodePerformance.eventLoopUtilization();
      const { task } = await delegateAll(team, subagents);
      const loop = nodePerformance.eventLoopUtilization(loopStart);
      if (task.status !== 'completed') throw new Error(`the coordinator ended ${task.status}: ${task.error ?? ''}`);
      perSubagent.push(loop.active / subagents);
    } finally {
      await team.close();
    }
  }
  return median(perSubagent.slice(1));
}
