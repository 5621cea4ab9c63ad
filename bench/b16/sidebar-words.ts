/**
 * B16's sidebar half: from a chunk leaving the model to its words in the sidebar's DOM, through the real
 * path as far as it runs in Node: the task manager's `task-text-delta` → the real `TaskViewProvider` (its
 * outbox coalesces, at most once a frame) → `webview.postMessage` (the test's FakeWebviewView, which
 * structured-clones as VS Code's channel does; `vscode` is the test's fake, aliased by
 * scripts/run-bench.mjs) → the webview window's `message` event (jsdom, as the webview tests use) → the
 * real sidebar (src/webview/app.ts), its frames driven by a 60 Hz frame clock (frame-clock.ts) that runs
 * its `requestAnimationFrame` callbacks at each frame's start and then "paints".
 * Each chunk is timed at three points: when the window's `message` listener first saw it (host and
 * channel), when a MutationObserver first saw its marker in the DOM, and the start of the first frame
 * whose paint included it: what the user sees. The DOM time alone would flatter a sidebar that writes the
 * DOM at once if the browser paints it no sooner; the painted frame cannot be flattered that way.
 */
import type * as vscode from 'vscode';
import { ChangeSetRegistry } from '../../src/engine/changes/index.js';
import { SecretRedactor } from '../../src/extension/redaction.js';
import { TaskViewProvider } from '../../src/extension/sidebar/task-view-provider.js';
import type { SetupState, WebviewApi } from '../../src/shared/protocol.js';
import { mountSidebar } from '../../src/webview/app.js';
import { Uri } from '../../test/extension/support/fake-basics.js';
import { FakeWebviewView } from '../../test/extension/support/fake-webview.js';
import { now } from '../support/stats.js';
import { FrameClock } from './frame-clock.js';
import { latenciesOf, StreamingModel } from '../support/streaming-model.js';
import { createBenchTeam } from '../support/team-fixture.js';

const setupState: SetupState = { modelConfigured: true, provider: 'anthropic', model: 'claude-sonnet-4-5', restricted: false };

interface BrowserWindow {
  document: Document;
  postMessage(message: unknown, targetOrigin: string): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

/**
 * A jsdom window whose DOM classes are this process's globals while the benchmark runs (the sidebar's
 * code uses `document`, `HTMLElement`, `MouseEvent` … as globals, as in the browser); `uninstall` puts
 * the process back as it was.
 */
async function installDom(): Promise<{ window: BrowserWindow; uninstall(): void }> {
  const { JSDOM } = await import('jsdom');
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true, url: 'https://webview.invalid/' });
  const window = dom.window as unknown as Record<string, unknown>;
  const previous = new Map<string, PropertyDescriptor | undefined>();
  const global = globalThis as unknown as Record<string, unknown>;
  // Node has its own Event classes: the DOM's must win, or events made by the sidebar fail on jsdom nodes.
  const overridden = new Set(['Event', 'EventTarget', 'MessageEvent', 'CustomEvent', 'window', 'document', 'navigator']);
  for (const key of Object.getOwnPropertyNames(window)) {
    if (key in global && !overridden.has(key)) continue;
    previous.set(key, Object.getOwnPropertyDescriptor(global, key));
    Object.defineProperty(global, key, { configurable: true, writable: true, value: key === 'window' ? window : window[key] });
  }
  return {
    window: dom.window as unknown as BrowserWindow,
    uninstall() {
      for (const [key, descriptor] of previous) {
        if (descriptor) Object.defineProperty(global, key, descriptor);
        else delete global[key];
      }
      dom.window.close();
    },
  };
}

/** Resolves once `condition()` holds, checking every few ms; throws after `timeoutMs`. */
async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!condition()) {
    if (now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Notes `at` for each chunk streamed so far whose marker `text` holds and that was not noted yet. */
function noteMarkers(model: StreamingModel, seen: Map<number, number>, text: string, at = now()): void {
  for (let index = 0; index < model.chunks.length; index++) {
    if (!seen.has(index) && text.includes(StreamingModel.marker(index))) seen.set(index, at);
  }
}

/** Each chunk's latency, in ms: to the webview's `message` event that carried it, to the DOM, and to its painted frame. */
export interface SidebarLatencies {
  /** To the host's `postMessage` of the batch carrying it. */
  posted: number[];
  dom: number[];
  received: number[];
  /** To the start of the first frame whose paint included the chunk's words. */
  painted: number[];
  /** How many chunks were painted in the first frame that started after they reached the webview. */
  nextFrame: number;
}

/** One streamed answer of `chunkCount` chunks `gapMs` apart: the latency of each chunk to the webview and to its DOM. */
export async function measureSidebarWords(chunkCount: number, gapMs: number): Promise<SidebarLatencies> {
  const { window, uninstall } = await installDom();
  const model = new StreamingModel(chunkCount, gapMs);
  const bench = createBenchTeam({ modelFor: () => model });
  const problems: string[] = [];
  const provider = new TaskViewProvider({
    extensionUri: Uri.file('/extension') as unknown as vscode.Uri,
    taskManager: bench.taskManager,
    changes: new ChangeSetRegistry(),
    setup: { state: async () => setupState, onDidChange: () => ({ dispose: () => undefined }), probeOnce: () => undefined } as never,
    historyLoaded: Promise.resolve(),
    log: { info: () => undefined, warn: (line: string) => problems.push(line), error: (line: string) => problems.push(line) },
    redactor: new SecretRedactor(),
    onAction: () => undefined,
  });
  const view = new FakeWebviewView();
  const hostPost = view.webview.postMessage;
  // When the host posted each chunk (the outbox's share of the channel).
  const postedAt = new Map<number, number>();
  view.webview.postMessage = async (message: unknown) => {
    noteMarkers(model, postedAt, JSON.stringify(message));
    const delivery = hostPost(message);
    // This message's clone: the fake pushes it before its first await (several messages of one batch are
    // posted before any of them resolves, so the last one posted by then may be another's).
    const copy = view.posted.at(-1);
    const delivered = await delivery;
    window.postMessage(copy, '*'); // delivered on a later task, as the browser does
    return delivered;
  };
  const root = window.document.createElement('div');
  window.document.body.append(root);
  const api: WebviewApi = {
    postMessage: (message) => view.send(structuredClone(message)),
    getState: () => undefined,
    setState: () => undefined,
  };
  provider.resolveWebviewView(view as unknown as vscode.WebviewView);
  const paintedAt = new Map<number, number>();
  const frames = new FrameClock((frameStartedAt) => {
    if (paintedAt.size === model.chunks.length) return;
    noteMarkers(model, paintedAt, root.textContent ?? '', frameStartedAt);
  });
  const sidebar = mountSidebar({ root, api, log: (message) => problems.push(message), scheduler: frames });
  frames.start();
  const seenAt = new Map<number, number>();
  // When each chunk's words reached the webview: from there the sidebar draws them at its next frame.
  const receivedAt = new Map<number, number>();
  window.addEventListener('message', (event) => {
    noteMarkers(model, receivedAt, JSON.stringify(event.data));
    sidebar.receive(event.data);
  });
  const observer = new MutationObserver(() => {
    noteMarkers(model, seenAt, root.textContent ?? '');
  });
  try {
    const run = bench.team.delegate({ prompt: 'Explain where dates are parsed.', role: 'researcher' });
    const rowOf = () => root.querySelector<HTMLElement>('[role="treeitem"]');
    await until(() => rowOf() !== null, 'the task row');
    rowOf()?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    await until(() => view.posted.some((message) => (message as { type?: string }).type === 'transcript'), 'the selected task transcript');
    observer.observe(root, { subtree: true, childList: true, characterData: true });
    model.begin();
    const { task } = await run;
    if (task.status !== 'completed') throw new Error(`the task ended ${task.status}: ${task.error ?? ''}`);
    await until(() => paintedAt.size === chunkCount, 'every chunk painted');
    if (problems.length > 0) throw new Error(`the sidebar reported: ${problems[0]}`);
    let nextFrame = 0;
    for (const [index, received] of receivedAt) if (frames.firstFrameFrom(received) === paintedAt.get(index)) nextFrame++;
    return {
      posted: latenciesOf(model, postedAt),
      dom: latenciesOf(model, seenAt),
      received: latenciesOf(model, receivedAt),
      painted: latenciesOf(model, paintedAt),
      nextFrame,
    };
  } finally {
    frames.stop();
    observer.disconnect();
    sidebar.dispose();
    provider.dispose();
    await bench.close();
    uninstall();
  }
}
