/** Shared helpers for the sidebar tests: task factories and a mounted sidebar with injected time. */
import { ManualClock } from '../../../src/engine/testing/manual-clock.js';
import {
  type HostMessage,
  type ProtocolTask,
  type SetupState,
  type WebviewApi,
  type WebviewMessage,
} from '../../../src/shared/protocol.js';
import { mountSidebar, type Sidebar, type SidebarOptions } from '../../../src/webview/app.js';
import { figuresSeparator, treeIndent } from '../../../src/webview/row.js';
import { type FrameScheduler } from '../../../src/webview/scheduler.js';

/** Frames happen only when the test calls `runFrame`; counts requests so tests can assert coalescing. */
export class ManualFrameScheduler implements FrameScheduler {
  private callbacks: Array<() => void> = [];
  requested = 0;

  requestFrame(callback: () => void): void {
    this.requested++;
    this.callbacks.push(callback);
  }

  get pending(): number {
    return this.callbacks.length;
  }

  runFrame(): void {
    const callbacks = this.callbacks;
    this.callbacks = [];
    for (const callback of callbacks) callback();
  }
}

export const startTime = 1_700_000_000_000;

export function makeTask(overrides: Partial<ProtocolTask> & { id: string }): ProtocolTask {
  return {
    parentId: null,
    rootId: overrides.parentId ? 'root' : overrides.id,
    depth: 0,
    role: 'coordinator',
    description: `Task ${overrides.id}`,
    background: false,
    status: 'running',
    createdAt: startTime,
    startedAt: startTime,
    usage: { inputTokens: 0, outputTokens: 0 },
    treeUsage: { inputTokens: 0, outputTokens: 0 },
    transcriptLength: 0,
    ...overrides,
  };
}

export const configuredSetup: SetupState = { modelConfigured: true, provider: 'anthropic', model: 'claude-sonnet-4-5', restricted: false };

/** A snapshot in one message (`complete`). */
export function snapshotMessage(tasks: ProtocolTask[], setup: SetupState = configuredSetup, now = startTime): HostMessage {
  return { type: 'snapshot', now, tasks, changes: [], setup, complete: true };
}

export interface Harness {
  sidebar: Sidebar;
  root: HTMLElement;
  posted: WebviewMessage[];
  logs: string[];
  savedState: { value: unknown };
  scheduler: ManualFrameScheduler;
  clock: ManualClock;
  /** Hands the sidebar a message, shows its streamed words (as the turn's end would) and runs the frame it asked for. */
  send(message: unknown): void;
  rows(): HTMLElement[];
  row(taskId: string): HTMLElement;
}

export function mountHarness(options: { savedState?: unknown; sidebar?: Partial<SidebarOptions> } = {}): Harness {
  document.body.replaceChildren();
  const root = document.createElement('div');
  document.body.append(root);
  const posted: WebviewMessage[] = [];
  const logs: string[] = [];
  const savedState = { value: options.savedState };
  const api: WebviewApi = {
    postMessage: (message) => posted.push(message),
    getState: () => savedState.value,
    setState: (state) => {
      savedState.value = state;
    },
  };
  const scheduler = new ManualFrameScheduler();
  const clock = new ManualClock(startTime);
  const sidebar = mountSidebar({ root, api, scheduler, clock, log: (message) => logs.push(message), ...options.sidebar });
  return {
    sidebar,
    root,
    posted,
    logs,
    savedState,
    scheduler,
    clock,
    send(message) {
      sidebar.receive(message);
      // What the end of the turn and the next frame would show (streamed words, then a pending render).
      sidebar.flush();
      scheduler.runFrame();
    },
    rows: () => Array.from(root.querySelectorAll<HTMLElement>('[role="treeitem"]')),
    row(taskId) {
      const element = root.querySelector<HTMLElement>(`[role="treeitem"][data-task-id="${taskId}"]`);
      if (!element) throw new Error(`no row for task ${taskId}`);
      return element;
    },
  };
}

export function click(element: Element, options: MouseEventInit = {}): void {
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, ...options }));
}

/**
 * Clicks the middle of a row's twistie (its `::before`, 16 px wide after the row's padding). jsdom has no
 * layout: rows sit at x = 0, so the twistie's place follows from the row's level alone.
 */
export function clickTwistie(row: Element): void {
  const level = Number(row.getAttribute('aria-level'));
  click(row, { clientX: (level - 1) * treeIndent() + 4 + 8 });
}

/** A row's figures: its elapsed time ('' before it started) and its tokens. */
export function rowFigures(row: Element): { elapsed: string; tokens: string } {
  const parts = (row.querySelector('.tree-figures')?.textContent ?? '').split(figuresSeparator);
  return parts.length === 1 ? { elapsed: '', tokens: parts[0] } : { elapsed: parts[0], tokens: parts[1] };
}

export function pressKey(element: Element, key: string): void {
  element.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}
