/**
 * `agent-team run --trace <file>`: the run's trace written when it ends, whatever its status: Markdown for
 * a `.md` file (for a pull request), JSON otherwise. A trace that cannot be written is reported and
 * changes nothing else: the run's result and exit code stay what they were.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  apiKeyVariables,
  buildRunTrace,
  type ChangeSetRegistry,
  type ChecksVerdictDetail,
  errorMessage,
  modelProviders,
  renderTraceJson,
  renderTraceMarkdown,
  type TaskManager,
  verdictMarkdown,
} from '../engine/index.js';

export async function writeTraceFile(
  file: string,
  run: { taskManager: TaskManager; changes: ChangeSetRegistry; rootId: string; checks?: ChecksVerdictDetail },
  context: { environment: NodeJS.ProcessEnv; stderr: { write(text: string): void }; cwd?: string },
): Promise<void> {
  const target = path.resolve(context.cwd ?? process.cwd(), file);
  try {
    const secrets = modelProviders.map((provider) => context.environment[apiKeyVariables[provider]] ?? '').filter((value) => value !== '');
    const trace = await buildRunTrace(run.taskManager, run.changes, run.rootId, { secrets });
    // The checks' verdict (`run --checks`) goes last: a section of the Markdown, a field of the JSON.
    const markdown = target.toLowerCase().endsWith('.md');
    const text = markdown
      ? renderTraceMarkdown(trace) + (run.checks ? `\n${verdictMarkdown(run.checks)}` : '')
      : run.checks
        ? `${JSON.stringify({ ...(JSON.parse(renderTraceJson(trace)) as object), checks: run.checks }, null, 2)}\n`
        : renderTraceJson(trace);
    await writeFile(target, text);
  } catch (error) {
    context.stderr.write(`agent-team: could not write the trace to ${target}: ${errorMessage(error)}\n`);
  }
}
