/**
 * A run of the history as the Markdown trace `--trace x.md` writes (the tree, prompts, tool calls, models,
 * tokens, diffs): the pull request body of `agent-team apply --branch`. The run is loaded into a task
 * manager and a registry of its own, the way `--continue` loads it, so the one trace builder serves both.
 */
import { ChangeSetRegistry } from '../engine/changes/registry.js';
import { apiKeyVariables, modelProviders } from '../engine/model/create-model.js';
import type { RunLog } from '../engine/runs/run-log.js';
import type { RunContents } from '../engine/runs/run-log-reader.js';
import { TaskManager } from '../engine/tasks/task-manager.js';
import { restoreProposals } from '../engine/team/resume-from-log.js';
import { buildRunTrace } from '../engine/trace/run-trace.js';
import { renderTraceMarkdown } from '../engine/trace/trace-markdown.js';

export async function historyTraceMarkdown(
  runLog: RunLog,
  contents: RunContents,
  environment: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): Promise<string> {
  const taskManager = new TaskManager({ store: { load: () => runLog.loadRun(contents.runId) }, onWarning: warn });
  try {
    await taskManager.load();
    const changes = new ChangeSetRegistry();
    restoreProposals(changes, contents, warn);
    const secrets = modelProviders.map((provider) => environment[apiKeyVariables[provider]] ?? '').filter((value) => value !== '');
    return renderTraceMarkdown(await buildRunTrace(taskManager, changes, contents.runId, { secrets }));
  } finally {
    await taskManager.close();
  }
}
