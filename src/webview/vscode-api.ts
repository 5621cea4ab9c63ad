/** The browser's `WebviewApi`: `acquireVsCodeApi()`, which VS Code lets a webview call only once. */
import { type WebviewApi, type WebviewMessage } from '../shared/protocol.js';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function acquireWebviewApi(): WebviewApi {
  const api = acquireVsCodeApi();
  return {
    postMessage: (message: WebviewMessage) => api.postMessage(message),
    getState: () => api.getState(),
    setState: (state: unknown) => api.setState(state),
  };
}
