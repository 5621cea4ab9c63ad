/**
 * B16's display: a 60 Hz frame clock standing in for the browser's. What the user sees is the frame a
 * chunk's words are painted in, not the moment they enter the DOM: a browser runs the page's
 * `requestAnimationFrame` callbacks at the start of each frame and then paints whatever the DOM holds.
 * This clock does the same in Node: frames start on a fixed 16.7 ms grid; at each one it runs the frame
 * callbacks the sidebar asked for (it is the sidebar's `FrameScheduler`) and then "paints", handing the
 * frame's start to `onPaint`, which looks at the DOM as the paint would. A frame whose timer fires late
 * (a busy thread) starts when it fires, as a browser's main thread starts its frame when it is free, so
 * a late frame counts against the figure.
 */
import type { FrameScheduler } from '../../src/webview/scheduler.js';
import { now } from '../support/stats.js';

/** One frame at 60 Hz, in ms. */
export const frameMs = 1000 / 60;

export class FrameClock implements FrameScheduler {
  private callbacks: (() => void)[] = [];
  private readonly origin = now();
  private handle: ReturnType<typeof setTimeout> | undefined;
  /** The grid line (ms after `origin`) the pending frame is for. */
  private line = 0;
  /** When each frame started (`now()`), in order. */
  readonly frameStarts: number[] = [];

  constructor(private readonly onPaint: (frameStartedAt: number) => void) {}

  requestFrame(callback: () => void): void {
    this.callbacks.push(callback);
  }

  start(): void {
    this.scheduleNext();
  }

  stop(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
  }

  /** The first frame that started at or after `time` (its start), or undefined if none has yet. */
  firstFrameFrom(time: number): number | undefined {
    return this.frameStarts.find((start) => start >= time);
  }

  private tick(): void {
    const startedAt = now();
    this.frameStarts.push(startedAt);
    const callbacks = this.callbacks;
    this.callbacks = [];
    for (const callback of callbacks) callback();
    this.onPaint(startedAt);
    this.scheduleNext();
  }

  /**
   * The next grid line after now and after the last frame's (a timer may fire a little early; a frame that
   * fired late does not move the grid, as vsync does not move).
   */
  private scheduleNext(): void {
    const elapsed = now() - this.origin;
    this.line = Math.max(this.line + frameMs, (Math.floor(elapsed / frameMs) + 1) * frameMs);
    this.handle = setTimeout(() => this.tick(), Math.max(0, this.line - elapsed));
  }
}
