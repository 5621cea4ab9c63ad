/**
 * The human view of a run on a terminal: on a TTY a live tree redrawn in place, each working task with the
 * last words its model is streaming under it (so words show as they come, not with the answer at the
 * end); elsewhere (pipes, CI logs) one line per start and end, so logs stay readable.
 */
import { type Cost, formatCost } from '../engine/model/cost-schema.js';
import { endReason } from '../engine/tasks/end-reason.js';
import type { TaskEvent, TaskSnapshot, TaskStatus } from '../engine/tasks/types.js';
import { terminalSafe } from './terminal-text.js';
import { todoLines } from '../engine/tasks/todo-item.js';
import { TodoChanges, todoText } from './todo-changes.js';

export interface TerminalOutput {
  write(text: string): void;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

const statusSymbols: Record<TaskStatus, string> = {
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
const queuedForYou = 'queued for you';

/** Characters of a task's streamed text kept for its live line (the line shows as many as fit). */
const streamedCharsKept = 400;
/** Redraws for streamed text at most this often: a fast stream must not flood the terminal. */
const streamRedrawMs = 30;

export class TerminalView {
  private readonly tasks = new Map<string, TaskSnapshot>();
  /** What each working task's model has streamed since its last finished step (its tail). */
  private readonly streamed = new Map<string, string>();
  private drawnLines = 0;
  /** When streamed text was last drawn (other redraws do not count: words after them show at once). */
  private lastStreamDrawAt = Number.NEGATIVE_INFINITY;
  private readonly todoChanges = new TodoChanges();

  constructor(
    private readonly output: TerminalOutput,
    private readonly now: () => number = Date.now,
  ) {}

  handle(event: TaskEvent): void {
    if (event.type === 'task-conversation') return;
    if (event.type === 'task-compaction') return this.compacted(event);
    if (event.type === 'task-text-delta' || event.type === 'task-transcript') return this.stream(event);
    this.tasks.set(event.task.id, event.task);
    if (event.type === 'task-end') this.streamed.delete(event.task.id);
    const todos = this.todoChanges.changed(event.task);
    if (this.output.isTTY) return this.redraw();
    // A log gets each change of the plan whole; a TTY shows the list live under its task instead.
    if (todos) this.output.write(todoText(event.task, todos));
    if (event.type === 'task-start') {
      this.output.write(
        `${indent(event.task)}${statusSymbols.running} ${label(event.task)}${event.task.background ? ' (background)' : ''}\n`,
      );
    } else if (event.type === 'task-end') {
      this.output.write(`${indent(event.task)}${statusSymbols[event.task.status]} ${label(event.task)} — ${describeEnd(event.task)}\n`);
    }
  }

  /**
   * Stops redrawing in place, so what follows prints below the final tree; says how to go on with each
   * run it showed that was interrupted.
   */
  finish(): void {
    if (this.output.isTTY) this.redraw();
    this.drawnLines = 0;
    for (const task of this.tasks.values()) {
      const hint = resumeHint(task);
      if (hint !== undefined) this.output.write(`${hint}\n`);
    }
  }

  /** A compaction is a line of its own (a TTY's tree is redrawn below it). */
  private compacted(event: Extract<TaskEvent, { type: 'task-compaction' }>): void {
    const task = this.tasks.get(event.taskId);
    const line = `${task ? indent(task) : ''}  compacted: ${event.beforeTokens} → ${event.afterTokens} tokens (${event.taskId})\n`;
    if (this.output.isTTY) this.drawnLines = 0;
    this.output.write(line);
  }

  /** A TTY shows the streamed words live; a finished step (its transcript entry) ends the live line. */
  private stream(event: Extract<TaskEvent, { type: 'task-text-delta' | 'task-transcript' }>): void {
    if (!this.output.isTTY) return;
    if (event.type === 'task-transcript') {
      if (this.streamed.delete(event.taskId)) this.redraw();
      return;
    }
    this.streamed.set(event.taskId, ((this.streamed.get(event.taskId) ?? '') + event.text).slice(-streamedCharsKept));
    if (this.now() - this.lastStreamDrawAt < streamRedrawMs) return;
    this.lastStreamDrawAt = this.now();
    this.redraw();
  }

  private redraw(): void {
    const lines = clipToHeight(this.treeLines(), [...this.tasks.values()], this.output.rows);
    const width = Math.max(20, (this.output.columns ?? 100) - 1);
    const clear = this.drawnLines > 0 ? `\x1b[${this.drawnLines}A\x1b[J` : '';
    this.output.write(clear + lines.map((line) => truncate(line, width)).join('\n') + (lines.length > 0 ? '\n' : ''));
    this.drawnLines = lines.length;
  }

  private treeLines(): string[] {
    const childrenOf = new Map<string | null, TaskSnapshot[]>();
    for (const task of this.tasks.values()) {
      const siblings = childrenOf.get(task.parentId) ?? [];
      siblings.push(task);
      childrenOf.set(task.parentId, siblings);
    }
    const lines: string[] = [];
    const visit = (parentId: string | null): void => {
      for (const task of childrenOf.get(parentId) ?? []) {
        const elapsed = formatSeconds(((task.endedAt ?? this.now()) - (task.startedAt ?? task.createdAt)) / 1000);
        const tokens = task.treeUsage.inputTokens + task.treeUsage.outputTokens;
        const cost = task.treeCost && totalOf(task.treeCost) > 0 ? ` · ${formatCost(task.treeCost)}` : '';
        const status = task.queuedForUser === true ? `${task.status}, ${queuedForYou}` : task.status;
        lines.push(
          `${indent(task)}${statusSymbols[task.status]} ${label(task)}  ${status} · ${elapsed} · ${formatTokens(tokens)} tokens${cost}`,
        );
        for (const line of todoLines(task.todos ?? [])) lines.push(`${indent(task)}  · ${terminalSafe(line)}`);
        const words = this.streamed.get(task.id);
        if (words !== undefined && words.trim() !== '')
          lines.push(`${indent(task)}  │ ${liveLine(words, (this.output.columns ?? 100) - 6 - 2 * task.depth)}`);
        visit(task.id);
      }
    };
    visit(null);
    return lines;
  }
}

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
function liveLine(text: string, width: number): string {
  const flat = terminalSafe(text.replace(/\s+/g, ' ').trim());
  const room = Math.max(10, width);
  return flat.length <= room ? flat : `…${flat.slice(flat.length - room + 1)}`;
}

function label(task: TaskSnapshot): string {
  // Roles and descriptions come from role files and models: nothing in them may act on the terminal.
  return terminalSafe(`[${task.id}] ${task.role}: ${task.description}`);
}

function indent(task: TaskSnapshot): string {
  return '  '.repeat(task.depth);
}

export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, seconds).toFixed(0)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

function truncate(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

/** Anything spent at all, priced or not: a task that used no model shows no cost. */
function totalOf(cost: Cost): number {
  return cost.usd + cost.unpricedTokens;
}
