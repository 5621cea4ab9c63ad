/**
 * The host's end of the sidebar protocol, without `vscode`: the extension's WebviewViewProvider wraps
 * `webview.postMessage` and `onDidReceiveMessage` in one of these, and gets
 * - the ready handshake: nothing is posted before the webview's `ready`; `ready` is answered with a fresh
 *   `snapshot` (whatever happened before is in it); `reset()` when the webview goes away;
 * - validation both ways: incoming messages are parsed and malformed ones dropped and logged; outgoing
 *   ones are checked too, so a message with a field the protocol does not know (a key, say) is never
 *   posted at all;
 * - batching: messages sent within `batchMs` are posted together, consecutive `task-upsert`s merged (the
 *   latest snapshot of each task wins) and consecutive `text-delta`s of one task joined, order kept.
 */
import { type Clock, systemClock } from '../engine/clock.js';
import {
  type HostMessage,
  type HostMessageOf,
  parseHostMessage,
  parseWebviewMessage,
  type WebviewMessage,
} from './protocol.js';

export interface HostChannelOptions {
  /** Posts one message to the webview (`webview.postMessage`). */
  post(message: HostMessage): unknown;
  /** The full state, built when the webview says `ready`. */
  snapshot(): HostMessageOf<'snapshot'>;
  /** Every valid message from the webview, `ready` included (after its snapshot was posted). */
  onMessage(message: WebviewMessage): void;
  /** Dropped messages, in and out (e.g. the extension's output channel). */
  log(line: string): void;
  /** How long messages are collected before posting, in ms. Default 16 (one frame); 0 posts at once. */
  batchMs?: number;
  /** Default: the system clock. */
  clock?: Clock;
  /** Check outgoing messages against the protocol before posting. Default true. */
  validateOutgoing?: boolean;
}

export class HostChannel {
  private isReady = false;
  private selected: string | null = null;
  private pending: HostMessage[] = [];
  private cancelFlush: (() => void) | undefined;
  private readonly batchMs: number;
  private readonly clock: Clock;

  constructor(private readonly options: HostChannelOptions) {
    this.batchMs = options.batchMs ?? 16;
    this.clock = options.clock ?? systemClock;
  }

  /** True between the webview's `ready` and `reset()`. */
  get ready(): boolean {
    return this.isReady;
  }

  /** The task whose transcript the webview shows (from its last `select-task`), or null. */
  get selectedTaskId(): string | null {
    return this.selected;
  }

  /** Hands over one message from the webview (`onDidReceiveMessage`). */
  receive(data: unknown): void {
    const parsed = parseWebviewMessage(data);
    if (!parsed.message) {
      this.options.log(`sidebar: ${parsed.reason}`);
      return;
    }
    const message = parsed.message;
    if (message.type === 'ready') {
      // A new webview: it knows nothing, so nothing queued for the old one matters.
      this.discardPending();
      this.isReady = true;
      this.selected = null;
      this.postNow([this.options.snapshot()]);
    } else if (message.type === 'select-task') {
      this.selected = message.taskId;
    }
    this.options.onMessage(message);
  }

  /** Queues a message for the webview; dropped before `ready` (the snapshot will cover it). */
  send(message: HostMessage): void {
    if (!this.isReady) return;
    const last = this.pending.at(-1);
    if (last?.type === 'task-upsert' && message.type === 'task-upsert') {
      const merged = new Map(last.tasks.map((task) => [task.id, task]));
      for (const task of message.tasks) merged.set(task.id, task);
      this.pending[this.pending.length - 1] = { type: 'task-upsert', now: message.now, tasks: [...merged.values()] };
    } else if (last?.type === 'text-delta' && message.type === 'text-delta' && last.taskId === message.taskId) {
      this.pending[this.pending.length - 1] = { ...last, text: last.text + message.text };
    } else {
      this.pending.push(message);
    }
    if (this.batchMs <= 0) this.flush();
    else this.cancelFlush ??= this.clock.setTimer(() => this.flush(), this.batchMs);
  }

  /** Posts everything queued now. */
  flush(): void {
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    const messages = this.pending;
    this.pending = [];
    this.postNow(messages);
  }

  /** The webview was disposed or hidden: forget it until the next `ready`. */
  reset(): void {
    this.isReady = false;
    this.selected = null;
    this.discardPending();
  }

  private postNow(messages: HostMessage[]): void {
    for (const message of messages) {
      if (this.options.validateOutgoing !== false) {
        const checked = parseHostMessage(message);
        if (!checked.message) {
          this.options.log(`sidebar: not sent, ${checked.reason}`);
          continue;
        }
      }
      this.options.post(message);
    }
  }

  private discardPending(): void {
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    this.pending = [];
  }
}
