/**
 * A run of the history as the Markdown trace `--trace x.md` writes (the tree, prompts, tool calls, models,
 * tokens, diffs): the pull request body of `agent-team apply --branch`. The run is loaded into a task
 * manager and a registry of its own (the engine's core, engine-core.ts), the way `--continue` loads it, so
 * the one trace builder serves both.
 */
import {
  apiKeyVariables,
  buildRunTrace,
  createEngineCore,
  modelProviders,
  renderTraceMarkdown,
  restoreProposals,
  type RunContents,
  type RunLog,
} from '../engine/index.js';

export async function historyTraceMarkdown(
  runLog: RunLog,
  contents: RunContents,
  environment: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): Promise<string> {
  // The engine's core over the one run, read only: no recorder is attached, so nothing is written back.
  const core = createEngineCore({ history: { store: { load: () => runLog.loadRun(contents.runId) } }, onWarning: warn });
  try {
    await core.load();
    restoreProposals(core.changes, contents, warn);
    const secrets = modelProviders.map((provider) => environment[apiKeyVariables[provider]] ?? '').filter((value) => value !== '');
    return renderTraceMarkdown(await buildRunTrace(core.taskManager, core.changes, contents.runId, { secrets }));
  } finally {
    await core.close();
  }
}
