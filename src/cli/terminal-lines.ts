/**
 * The lines of the terminal's view of a run: each task's line, its end, the hint to resume an interrupted
 * run, the live line of streamed words, the tree clipped to the screen. Pure functions of snapshots, kept
 * apart from the view that decides when to draw (terminal-view.ts).
 */
import { type Cost, endReason, formatCost, type TaskSnapshot, type TaskStatus, todoLines } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

export const statusSymbols: Record<TaskStatus, string> = {
  queued: '…',
  running: '▶',
  waiting: '?',
  completed: '✔',
  failed: '✖',
  stopped: '■',
  // A pause sign: the task did not fail and was not stopped by anybody; the run can go on (--resume).
  interrupted: '‖',
};

/** A task whose question waits behind another's (TaskSnapshot.queuedForUser; stderr says so too: queued-questions.ts). */
export const queuedForYou = 'queued for you';

/**
 * The tree as tall as the terminal lets it be: a tree taller than the screen cannot be redrawn in place
 * (the lines above the top scroll away and the redraw leaves copies). The rest is one line that counts it.
 */
export function clipToHeight(lines: string[], tasks: readonly TaskSnapshot[], rows: number | undefined): string[] {
  if (rows === undefined || rows < 4 || lines.length <= rows - 1) return lines;
  const shown = rows - 2;
  const running = tasks.filter((task) => task.status === 'running' || task.status === 'queued' || task.status === 'waiting').length;
  return [...lines.slice(0, shown), `… and ${lines.length - shown} more tasks (${running} at work in all)`];
}

export function describeEnd(task: TaskSnapshot): string {
  const tokens = formatTokens(task.treeUsage.inputTokens + task.treeUsage.outputTokens);
  const reason = endReason(task);
  const cost = task.treeCost && totalOf(task.treeCost) > 0 ? `, ${formatCost(task.treeCost)}` : '';
  return `${task.status}${reason ? `: ${terminalSafe(reason)}` : ''} (${tokens} tokens${cost})`;
}

/**
 * How to go on with an interrupted run, for its root (a subagent is resumed with its run); undefined for
 * anything else. A run id is its root task's id.
 */
export function resumeHint(task: TaskSnapshot): string | undefined {
  if (task.parentId !== null || task.status !== 'interrupted') return undefined;
  return terminalSafe(`Run ${task.id} was interrupted before it finished; go on with it: agent-team run --resume ${task.id}`);
}

/** The end of the streamed text on one line, as much as the width holds; the model's text is made safe. */
export function liveLine(text: string, width: number): string {
  const flat = terminalSafe(text.replace(/\s+/g, ' ').trim());
  const room = Math.max(10, width);
  return flat.length <= room ? flat : `…${flat.slice(flat.length - room + 1)}`;
}

export function label(task: TaskSnapshot): string {
  // Roles and descriptions come from role files and models: nothing in them may act on the terminal.
  return terminalSafe(`[${task.id}] ${task.role}: ${task.description}`);
}

export function indent(task: TaskSnapshot): string {
  return '  '.repeat(task.depth);
}

export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, seconds).toFixed(0)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

export function truncate(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

/** Anything spent at all, priced or not: a task that used no model shows no cost. */
export function totalOf(cost: Cost): number {
  return cost.usd + cost.unpricedTokens;
}

/** The live tree: each task's line under its parent's, its plan and the words its model is streaming. */
export function treeLines(
  tasks: Iterable<TaskSnapshot>,
  streamed: ReadonlyMap<string, string>,
  now: number,
  columns: number | undefined,
): string[] {
  const childrenOf = new Map<string | null, TaskSnapshot[]>();
  for (const task of tasks) {
    const siblings = childrenOf.get(task.parentId) ?? [];
    siblings.push(task);
    childrenOf.set(task.parentId, siblings);
  }
  const lines: string[] = [];
  const visit = (parentId: string | null): void => {
    for (const task of childrenOf.get(parentId) ?? []) {
      const elapsed = formatSeconds(((task.endedAt ?? now) - (task.startedAt ?? task.createdAt)) / 1000);
      const tokens = task.treeUsage.inputTokens + task.treeUsage.outputTokens;
      const cost = task.treeCost && totalOf(task.treeCost) > 0 ? ` · ${formatCost(task.treeCost)}` : '';
      const status = task.queuedForUser === true ? `${task.status}, ${queuedForYou}` : task.status;
      lines.push(
        `${indent(task)}${statusSymbols[task.status]} ${label(task)}  ${status} · ${elapsed} · ${formatTokens(tokens)} tokens${cost}`,
      );
      for (const line of todoLines(task.todos ?? [])) lines.push(`${indent(task)}  · ${terminalSafe(line)}`);
      const words = streamed.get(task.id);
      if (words !== undefined && words.trim() !== '')
        lines.push(`${indent(task)}  │ ${liveLine(words, (columns ?? 100) - 6 - 2 * task.depth)}`);
      visit(task.id);
    }
  };
  visit(null);
  return lines;
}
