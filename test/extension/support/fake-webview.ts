/** A webview view as VS Code hands it to a `WebviewViewProvider`: records what the host posts to it. */
import { Disposable, EventEmitter, type Uri } from './fake-basics.js';

export class FakeWebviewView {
  readonly posted: unknown[] = [];
  private readonly received = new EventEmitter<unknown>();
  private readonly disposed = new EventEmitter<void>();
  private readonly postListeners = new Set<(message: unknown) => void>();
  shows = 0;

  readonly webview = {
    options: {} as { enableScripts?: boolean; localResourceRoots?: Uri[]; retainContextWhenHidden?: boolean },
    html: '',
    // What VS Code and code-server really hand out: a source list, quotes included.
    cspSource: "'self' https://*.vscode-cdn.net",
    asWebviewUri: (uri: Uri) => uri.with({ scheme: 'https', authority: 'fake.vscode-cdn.net' }),
    postMessage: async (message: unknown) => {
      // A structured clone, as the real channel makes: the host cannot keep a reference into the webview.
      const copy: unknown = structuredClone(message);
      this.posted.push(copy);
      for (const listener of [...this.postListeners]) listener(copy);
      return true;
    },
    onDidReceiveMessage: this.received.event,
  };

  readonly onDidDispose = this.disposed.event;
  private readonly visibility = new EventEmitter<void>();
  readonly onDidChangeVisibility = this.visibility.event;
  visible = true;

  /** The user hides or shows the view (another view container, a collapsed section). */
  setVisible(visible: boolean): void {
    this.visible = visible;
    this.visibility.fire();
  }

  show(_preserveFocus?: boolean): void {
    this.shows++;
  }

  /** The webview posts a message to the host. */
  send(message: unknown): void {
    this.received.fire(message);
  }

  /** Resolves with the first posted message (already posted or future) that matches. */
  waitFor(predicate: (message: unknown) => boolean): Promise<unknown> {
    const found = this.posted.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = (message: unknown) => {
        if (!predicate(message)) return;
        this.postListeners.delete(listener);
        resolve(message);
      };
      this.postListeners.add(listener);
    });
  }

  /** The view is closed (the sidebar hidden: its webview is destroyed). */
  dispose(): void {
    this.disposed.fire();
  }

  /** Posted messages of one type. */
  ofType<Message extends { type: string }>(type: string): Message[] {
    return this.posted.filter((message): message is Message => (message as { type?: unknown }).type === type);
  }
}

export function disposableWebviewRegistration(onDispose: () => void): Disposable {
  return new Disposable(onDispose);
}
