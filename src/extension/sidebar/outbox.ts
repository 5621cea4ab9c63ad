/**
 * Coalesces what the sidebar is sent. A busy run produces many events a second (text deltas above all);
 * the webview needs the latest state, not every step: task snapshots are collected per task, the selected
 * task's detail is kept as its latest, transcript entries and text of the selected task are joined in
 * order, and all of it goes out at most once per `flushDelayMs`, one frame: the webview draws at most once
 * a frame, so gathering more only delays. A change after a frame's quiet goes out at once, at the
 * end of the loop's current turn, with what the same event brings. Streamed words and steps count the
 * frame from the last batch that carried some, not from any batch: a status change sent just before must
 * not hold back a model's next words (B16); a model streaming every 20 ms or slower is sent at each chunk.
 */
import type { Clock, TaskSnapshot, TranscriptEntry } from '../../engine/index.js';
import { atTurnEnd } from './turn-end.js';
import { type ChangeSummary, type HostMessage, type HostMessageOf, type TaskDetail, toProtocolTask } from '../../shared/protocol.js';

type StreamMessage = HostMessageOf<'transcript'> | HostMessageOf<'text-delta'>;

export interface OutboxOptions {
  post: (message: HostMessage) => void;
  clock: Clock;
  /** Least time between two batches, so the longest a change waits. Default 16 ms, one frame at 60 Hz (B16). */
  flushDelayMs?: number;
}

export const defaultFlushDelayMs = 16;

export class SidebarOutbox {
  private readonly tasks = new Map<string, TaskSnapshot>();
  private readonly summaries = new Map<string, ChangeSummary>();
  private detailPending: TaskDetail | undefined;
  private stream: StreamMessage[] = [];
  private cancelTimer: (() => void) | undefined;
  /** When the last batch went out: the next waits only for what is left of the delay. */
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  /** When the last batch with streamed words or steps went out (the next stream change waits for this one). */
  private lastStreamFlushAt = Number.NEGATIVE_INFINITY;
  /** When the pending timer fires. */
  private timerDueAt = Number.POSITIVE_INFINITY;
  /** Set while a snapshot goes out in parts: nothing is sent, so no update can come before a part with older rows. */
  private held = false;

  constructor(private readonly options: OutboxOptions) {}

  task(snapshot: TaskSnapshot): void {
    this.tasks.set(snapshot.id, snapshot);
    this.schedule();
  }

  /** The selected task's prompt and output changed; only the latest is sent. */
  detail(detail: TaskDetail): void {
    this.detailPending = detail;
    this.schedule();
  }

  transcript(taskId: string, index: number, entry: TranscriptEntry): void {
    const last = this.stream[this.stream.length - 1];
    if (last?.type === 'transcript' && last.taskId === taskId && last.index + last.entries.length === index) {
      last.entries.push(entry);
    } else {
      this.stream.push({ type: 'transcript', taskId, index, entries: [entry] });
    }
    this.schedule(true);
  }

  textDelta(taskId: string, text: string): void {
    const last = this.stream[this.stream.length - 1];
    if (last?.type === 'text-delta' && last.taskId === taskId) last.text += text;
    else this.stream.push({ type: 'text-delta', taskId, text });
    this.schedule(true);
  }

  changeSummary(summary: ChangeSummary): void {
    this.summaries.set(summary.taskId, summary);
    this.schedule();
  }

  /** Drops queued detail, transcript and text (the selection changed: the new task's follow whole). */
  dropStream(): void {
    this.detailPending = undefined;
    this.stream = [];
  }

  /** Sends nothing until `release`: what comes meanwhile is queued (a snapshot is going out in parts). */
  hold(): void {
    this.held = true;
  }

  /** Sends what was queued while held, at once. */
  release(): void {
    this.held = false;
    this.flush();
  }

  /** Drops everything queued (a snapshot is about to replace it), and any hold. */
  clear(): void {
    this.held = false;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.tasks.clear();
    this.summaries.clear();
    this.detailPending = undefined;
    this.stream = [];
  }

  /** Sends what is queued now: tasks first, so details and transcripts never arrive for a task the webview lacks. */
  flush(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.held) return;
    this.lastFlushAt = this.options.clock.now();
    if (this.stream.length > 0) this.lastStreamFlushAt = this.lastFlushAt;
    if (this.tasks.size > 0) {
      const tasks = [...this.tasks.values()].map(toProtocolTask);
      this.tasks.clear();
      this.options.post({ type: 'task-upsert', now: this.options.clock.now(), tasks });
    }
    const detail = this.detailPending;
    this.detailPending = undefined;
    if (detail) this.options.post({ type: 'task-detail', ...detail });
    const stream = this.stream;
    this.stream = [];
    for (const message of stream) this.options.post(message);
    if (this.summaries.size > 0) {
      const summaries = [...this.summaries.values()];
      this.summaries.clear();
      this.options.post({ type: 'change-summary', summaries });
    }
  }

  /** `stream`: streamed words or steps, whose frame counts from the last batch that carried some. */
  private schedule(stream = false): void {
    const delay = this.options.flushDelayMs ?? defaultFlushDelayMs;
    const now = this.options.clock.now();
    const wait = Math.max(0, Math.min(delay, (stream ? this.lastStreamFlushAt : this.lastFlushAt) + delay - now));
    if (this.cancelTimer && this.timerDueAt <= now + wait) return;
    this.cancelTimer?.();
    this.timerDueAt = now + wait;
    const send = () => {
      this.cancelTimer = undefined;
      this.flush();
    };
    this.cancelTimer = wait > 0 ? this.options.clock.setTimer(send, wait) : atTurnEnd(send);
  }
}
