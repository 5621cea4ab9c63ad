/**
 * B16's sidebar half: from a chunk leaving the model to its words in the sidebar's DOM, through the real
 * path as far as it runs in Node: the task manager's `task-text-delta` → the real `TaskViewProvider` (its
 * outbox coalesces, at most once a frame) → `webview.postMessage` (the test's FakeWebviewView, which
 * structured-clones as VS Code's channel does; `vscode` is the test's fake, aliased by
 * scripts/run-bench.mjs) → the webview window's `message` event (jsdom, as the webview tests use) → the
 * real sidebar (src/webview/app.ts) with its default scheduler, jsdom's requestAnimationFrame at 60 Hz.
 * A MutationObserver notes when each chunk's marker is first in the DOM, and the window's `message`
 * listener when it first reached the webview: the difference is the wait for the sidebar's next frame
 * (it renders in `requestAnimationFrame`, which a browser runs just before painting, so DOM and screen
 * change in the same frame; rendering sooner would make this figure smaller without showing a pixel sooner).
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

/** Each chunk's latency, in ms: to the sidebar's DOM, and to the webview's `message` event that carried it. */
export interface SidebarLatencies {
  dom: number[];
  received: number[];
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
  view.webview.postMessage = async (message: unknown) => {
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
  const sidebar = mountSidebar({ root, api, log: (message) => problems.push(message) });
  const seenAt = new Map<number, number>();
  // When each chunk's words reached the webview: from there the sidebar draws them at its next frame.
  const receivedAt = new Map<number, number>();
  window.addEventListener('message', (event) => {
    const text = JSON.stringify(event.data);
    for (let index = 0; index < model.chunks.length; index++) {
      if (!receivedAt.has(index) && text.includes(StreamingModel.marker(index))) receivedAt.set(index, now());
    }
    sidebar.receive(event.data);
  });
  const observer = new MutationObserver(() => {
    const text = root.textContent ?? '';
    for (let index = 0; index < model.chunks.length; index++) {
      if (!seenAt.has(index) && text.includes(StreamingModel.marker(index))) seenAt.set(index, now());
    }
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
    await until(() => seenAt.size === chunkCount, 'every chunk in the DOM');
    if (problems.length > 0) throw new Error(`the sidebar reported: ${problems[0]}`);
    return { dom: latenciesOf(model, seenAt), received: latenciesOf(model, receivedAt) };
  } finally {
    observer.disconnect();
    sidebar.dispose();
    provider.dispose();
    await bench.close();
    uninstall();
  }
}
