/**
 * The human view of a run on a terminal: on a TTY a live tree redrawn in place, each working task with the
 * last words its model is streaming under it (so words show as they come, not with the answer at the
 * end); elsewhere (pipes, CI logs) one line per start and end, so logs stay readable.
 */
import type { TaskEvent, TaskSnapshot } from '../engine/index.js';
import { clipToHeight, describeEnd, indent, label, resumeHint, statusSymbols, treeLines, truncate } from './terminal-lines.js';
import { TodoChanges, todoText } from './todo-changes.js';

export interface TerminalOutput {
  write(text: string): void;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** Characters of a task's streamed text kept for its live line (the line shows as many as fit). */
const streamedCharsKept = 400;
/**
 * Redraws for streamed text at most this often (a fast stream must not flood the terminal): one frame at
 * 60 Hz, so a model streaming every 20 ms or slower is drawn at each chunk; words that come sooner are
 * drawn by a timer when the frame is up, never left for the next chunk (B16).
 */
const streamRedrawMs = 16;

/** Calls back once after `delayMs`; returns a canceller. */
export type TerminalTimer = (callback: () => void, delayMs: number) => () => void;

/** A timer that does not hold the process open: `finish` draws whatever it was waiting to. */
const unrefTimer: TerminalTimer = (callback, delayMs) => {
  const handle = setTimeout(callback, delayMs);
  handle.unref();
  return () => clearTimeout(handle);
};

export class TerminalView {
  private readonly tasks = new Map<string, TaskSnapshot>();
  /** What each working task's model has streamed since its last finished step (its tail). */
  private readonly streamed = new Map<string, string>();
  private drawnLines = 0;
  /** When streamed text was last drawn (other redraws do not count: words after them show at once). */
  private lastStreamDrawAt = Number.NEGATIVE_INFINITY;
  private readonly todoChanges = new TodoChanges();
  /** Cancels the redraw waiting for the frame to be up; undefined when none waits. */
  private cancelStreamDraw: (() => void) | undefined;

  constructor(
    private readonly output: TerminalOutput,
    private readonly now: () => number = Date.now,
    private readonly setTimer: TerminalTimer = unrefTimer,
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
    if (this.cancelStreamDraw) return;
    const wait = this.lastStreamDrawAt + streamRedrawMs - this.now();
    if (wait <= 0) return this.drawStream();
    this.cancelStreamDraw = this.setTimer(() => this.drawStream(), wait);
  }

  private drawStream(): void {
    this.lastStreamDrawAt = this.now();
    this.redraw();
  }

  private redraw(): void {
    // Any redraw shows the latest words: one still waiting for its frame has nothing left to draw.
    this.cancelStreamDraw?.();
    this.cancelStreamDraw = undefined;
    const lines = clipToHeight(
      treeLines(this.tasks.values(), this.streamed, this.now(), this.output.columns),
      [...this.tasks.values()],
      this.output.rows,
    );
    const width = Math.max(20, (this.output.columns ?? 100) - 1);
    const clear = this.drawnLines > 0 ? `\x1b[${this.drawnLines}A\x1b[J` : '';
    this.output.write(clear + lines.map((line) => truncate(line, width)).join('\n') + (lines.length > 0 ? '\n' : ''));
    this.drawnLines = lines.length;
  }
}
