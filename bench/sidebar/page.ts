/**
 * B4's page script (bundled for the browser at run time): mounts the real sidebar on a page and times it
 * from inside the page. Messages reach it as in VS Code, through `window.postMessage`, so the browser's
 * structured clone of a large snapshot is part of the time. `window.sidebarBench` is what the benchmark
 * drives through Playwright.
 */
import { type HostMessage, type ProtocolTask, parseHostMessage, toProtocolTask, type WebviewMessage } from '../../src/shared/protocol.js';
import { mountSidebar, type Sidebar } from '../../src/webview/app.js';
import { historyStart, longHistory, snapshotOf } from './history.js';

export interface RenderTiming {
  /**
   * The work from postMessage to the render done and laid out: `cloneMs + receiveMs + renderMs + layoutMs`.
   * The time the message waited in the browser's task queue behind other work (a frame) is left out.
   */
  totalMs: number;
  /** Of which: serializing the message (the sender's side of the structured clone). */
  cloneMs: number;
  /** Not counted: from postMessage returning to the message event (queueing; deserializing, when eager). */
  waitMs: number;
  /** Of which: reading `event.data` (the receiver's side of the clone, where the browser does it lazily). */
  readMs: number;
  /** Of which: validating and storing the message (`receive`). */
  receiveMs: number;
  /** Of which: building the DOM (`flush`). */
  renderMs: number;
  /** Of which: the browser's style and layout of the result. */
  layoutMs: number;
}

/** The first render, and the rest of the snapshot the host sends right behind the first message. */
export interface FirstRenderTiming extends RenderTiming {
  domNodes: number;
  rows: number;
  /** Messages the snapshot came in (the first is what `totalMs` times). */
  messages: number;
  /** The other messages, each handled, rendered and laid out as it came (their `totalMs` summed). */
  restMs: number;
}

export interface SidebarBench {
  firstRender(taskCount: number): Promise<FirstRenderTiming>;
  /** One task's status changes (running ↔ completed); returns its timing. */
  statusUpdate(round: number): Promise<RenderTiming>;
  domNodes(): number;
  /** Diagnosis: validating the snapshot's first message again, warm (median of 3), without storing or rendering it. */
  validateAgainMs(): number;
}

let sidebar: Sidebar | undefined;
let tasks: ProtocolTask[] = [];
let lastSnapshot: HostMessage | undefined;
const posted: WebviewMessage[] = [];

/** Posts `message` to this window and resolves with the timing of its handling. */
function deliver(message: HostMessage): Promise<RenderTiming> {
  return new Promise((resolve) => {
    let start = 0;
    let posted = 0;
    const onMessage = (event: MessageEvent) => {
      window.removeEventListener('message', onMessage);
      const received = performance.now();
      const data: unknown = event.data;
      const read = performance.now();
      sidebar!.receive(data);
      const stored = performance.now();
      sidebar!.flush();
      const rendered = performance.now();
      void document.body.offsetHeight; // forces style and layout now, so they count
      const laidOut = performance.now();
      const cloneMs = posted - start;
      const waitMs = received - posted;
      resolve({
        totalMs: laidOut - start - waitMs,
        cloneMs,
        waitMs,
        readMs: read - received,
        receiveMs: stored - read,
        renderMs: rendered - stored,
        layoutMs: laidOut - rendered,
      });
    };
    window.addEventListener('message', onMessage);
    start = performance.now();
    window.postMessage(message, '*');
    posted = performance.now();
  });
}

const bench: SidebarBench = {
  async firstRender(taskCount) {
    const root = document.getElementById('app')!;
    sidebar = mountSidebar({
      root,
      api: { postMessage: (message) => posted.push(message), getState: () => undefined, setState: () => undefined },
    });
    const history = longHistory(taskCount);
    tasks = history.map(toProtocolTask);
    const messages = snapshotOf(history, historyStart + tasks.length * 12_000);
    lastSnapshot = messages[0];
    const timing = await deliver(messages[0]);
    const first = { ...timing, domNodes: bench.domNodes(), rows: document.querySelectorAll('[role="treeitem"]').length };
    let restMs = 0;
    for (const message of messages.slice(1)) restMs += (await deliver(message)).totalMs;
    if (sidebar.store.tasks.size !== tasks.length)
      throw new Error(`the sidebar holds ${sidebar.store.tasks.size} of ${tasks.length} tasks`);
    return { ...first, domNodes: Math.max(first.domNodes, bench.domNodes()), messages: messages.length, restMs };
  },
  async statusUpdate(round) {
    // A running subagent of the newest delegation (on screen) completes, or starts again.
    const running = tasks.filter((task) => task.depth === 1).slice(-4);
    const target = running[round % running.length];
    const completed = target.status !== 'completed';
    const updated: ProtocolTask = completed
      ? { ...target, status: 'completed', endedAt: target.createdAt + 1_000 + round }
      : { ...target, status: 'running', endedAt: undefined };
    if (!completed) delete updated.endedAt;
    tasks[tasks.indexOf(target)] = updated;
    return deliver({ type: 'task-upsert', now: historyStart + tasks.length * 12_000 + round, tasks: [updated] });
  },
  domNodes: () => document.querySelectorAll('*').length,
  validateAgainMs() {
    const times = [0, 1, 2].map(() => {
      const start = performance.now();
      if (!parseHostMessage(structuredClone(lastSnapshot)).message) throw new Error('the snapshot did not validate');
      return performance.now() - start;
    });
    return times.sort((a, b) => a - b)[1];
  },
};

(window as unknown as { sidebarBench: SidebarBench }).sidebarBench = bench;
