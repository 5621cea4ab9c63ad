/**
 * The sidebar's browser bundle (esbuild: src/webview/main.ts → dist/webview/main.js, iife). Mounts the
 * sidebar into #app, feeds it the host's messages and reports uncaught errors to the host's log.
 */
import { mountSidebar } from './app.js';
import { acquireWebviewApi } from './vscode-api.js';
import { readStrings } from './l10n.js';

const api = acquireWebviewApi();

window.addEventListener('error', (event) => {
  api.postMessage({ type: 'log', level: 'error', message: String(event.message).slice(0, 4000) });
});

const root = document.getElementById('app') ?? document.body;
readStrings(root);
const sidebar = mountSidebar({ root, api });
window.addEventListener('message', (event: MessageEvent) => sidebar.receive(event.data));
