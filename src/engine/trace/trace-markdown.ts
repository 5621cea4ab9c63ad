/**
 * A run's trace as Markdown for a pull request: a summary table of the tree, then one section per task
 * with its prompt, its steps (tool calls folded in `<details>`), its answer and its diffs. Everything an
 * agent wrote goes inside code fences longer than any backtick run in it, so model text cannot break out
 * of a fence or turn into markup.
 */
import { formatCost } from '../model/cost-schema.js';
import type { RunTrace, TraceTask } from './run-trace.js';
import { todoLines } from '../tasks/todo-item.js';

export function renderTraceJson(trace: RunTrace): string {
  return `${JSON.stringify(trace, null, 2)}\n`;
}

export function renderTraceMarkdown(trace: RunTrace): string {
  const run = trace.run;
  const lines = [
    `# Agent Team run ${run.id}: ${inline(run.description)}`,
    '',
    `Status **${run.status}**${run.stopReason ? ` (${run.stopReason.kind})` : ''} · ${tokens(run.treeUsage)}${run.budgetTokens !== undefined ? ` of a budget of ${run.budgetTokens}` : ''}${run.treeCost ? ` · cost ${formatCost(run.treeCost)}${run.budgetUsd !== undefined ? ` of a budget of $${run.budgetUsd}` : ''}` : ''}${run.durationMs !== undefined ? ` · ${seconds(run.durationMs)}` : ''}`,
    '',
    '| task | role | description | model | status | tokens | cost | time |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...trace.tasks.map(
      (task) =>
        `| ${'\u2003'.repeat(depthOf(trace, task))}${task.id} | ${inline(task.role)} | ${inline(task.description)} | ${inline(modelsOf(task))} | ${task.status} | ${tokens(task.usage)}${contextOf(task)} | ${task.cost ? formatCost(task.cost) : ''} | ${task.durationMs === undefined ? '' : seconds(task.durationMs)} |`,
    ),
    '',
  ];
  for (const task of trace.tasks) lines.push(...taskSection(task));
  return `${lines.join('\n')}\n`;
}

function taskSection(task: TraceTask): string[] {
  const ancestors = task.ancestorTasks?.length
    ? [
        '**Ancestor tasks** (context only, outermost first)',
        '',
        ...fenced(task.ancestorTasks.map((entry, index) => `${index + 1}. ${entry}`).join('\n'), 'text'),
        '',
      ]
    : [];
  const lines = [
    `## ${task.id} ${inline(task.role)}: ${inline(task.description)}`,
    '',
    ...ancestors,
    '**Prompt**',
    '',
    ...fenced(task.prompt, 'text'),
    '',
  ];
  if (task.todos?.length) lines.push('**Todo list**', '', ...fenced(todoLines(task.todos).join('\n'), 'text'), '');
  const steps = task.transcript.filter((entry) => entry.type !== 'text');
  if (steps.length > 0) {
    lines.push('<details><summary>Steps</summary>', '');
    for (const entry of task.transcript) {
      if (entry.type === 'tool-call')
        lines.push(`- \`${inline(entry.toolName)}\``, '', ...fenced(JSON.stringify(entry.input ?? null, null, 2), 'json'), '');
      else if (entry.type === 'tool-result')
        lines.push(`- result${entry.isError ? ' (error)' : ''}:`, '', ...fenced(entry.output, 'text'), '');
      else if (entry.type === 'notice') lines.push(`- notice: ${inline(entry.text)}`, '');
    }
    lines.push('</details>', '');
  }
  if (task.error) lines.push(`**Error**: ${inline(task.error)}`, '');
  if (task.output)
    lines.push(task.status === 'completed' ? '**Answer**' : '**Partial output**', '', ...fenced(task.output, 'markdown'), '');
  for (const change of task.changes)
    lines.push(
      `**${inline(change.path)}** (+${change.added} \u2212${change.removed}, ${change.status}${change.editedByUser ? ', edited by the user' : ''})`,
      '',
      ...fenced(change.diff, 'diff'),
      '',
    );
  return lines;
}

/** A fence one backtick longer than the longest run of backticks inside, so nothing closes it early. */
function fenced(text: string, language: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${language}`, text.replace(/\n$/, ''), fence];
}

/** Text in a table cell or a heading: one line, no pipes, no HTML, no emphasis. */
function inline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_[\]<>|#]/g, (character) => `\\${character}`)
    .slice(0, 200);
}

function depthOf(trace: RunTrace, task: TraceTask): number {
  let depth = 0;
  for (let parent = task.parentId; parent !== null && depth < 20; depth++)
    parent = trace.tasks.find((other) => other.id === parent)?.parentId ?? null;
  return depth;
}

/** The task's model; each model in turn, with its tokens, for a task that failed over. */
function modelsOf(task: TraceTask): string {
  if (!task.usageByModel) return task.model ?? '';
  return task.usageByModel.map((entry) => `${entry.model} (${tokens(entry.usage)})`).join(' → ');
}

/** ` · context 45 % of 200000`: how full the window was at the task's last request. */
function contextOf(task: TraceTask): string {
  if (!task.context) return '';
  const { usedTokens, windowTokens } = task.context;
  return windowTokens ? ` · context ${Math.round((usedTokens / windowTokens) * 100)} % of ${windowTokens}` : ` · context ${usedTokens}`;
}

function tokens(usage: { inputTokens: number; outputTokens: number }): string {
  return `${usage.inputTokens + usage.outputTokens} tokens`;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
