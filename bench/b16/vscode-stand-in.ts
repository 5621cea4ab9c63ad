/**
 * The `vscode` module as the benchmarks that drive the extension's host code need it (scripts/run-bench.mjs
 * aliases `vscode` here): B16's sidebar half touches only `Uri`, `Disposable` and `commands`; B15's window
 * adds the status bar item (src/extension/status-bar.ts) and `workspace.fs` for the saved proposals
 * (src/extension/change-store.ts), served by node:fs. The extension tests' `Uri` and `Disposable`;
 * commands do nothing; `l10n` says English (no bundle) and `env` names the language, as the sidebar's
 * page needs them (src/extension/sidebar/webview-document.ts). The extension tests' whole fake is not used: it reads the manifest from a path
 * relative to its own file, which a bundle moves.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { Uri } from '../../test/extension/support/fake-basics.js';

export { Disposable, EventEmitter, Uri } from '../../test/extension/support/fake-basics.js';

export const commands = {
  executeCommand: async (): Promise<undefined> => undefined,
};

/** English: no bundle loaded, each message as written with its `{0}`… filled, as `vscode.l10n.t` does. */
export const l10n = {
  bundle: undefined,
  t: (message: string, ...args: unknown[]): string =>
    message.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole)),
};

export const env = { language: 'en' };

export const StatusBarAlignment = { Left: 1, Right: 2 };

export const window = {
  /** A status bar item that keeps what it is set to and shows nothing. */
  createStatusBarItem: () => ({
    text: '',
    tooltip: '',
    name: '',
    command: undefined as unknown,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
  }),
};

export const workspace = {
  fs: {
    readFile: async (uri: Uri) => new Uint8Array(await readFile(uri.fsPath)),
    writeFile: (uri: Uri, content: Uint8Array) => writeFile(uri.fsPath, content),
    createDirectory: async (uri: Uri) => void (await mkdir(uri.fsPath, { recursive: true })),
    rename: (from: Uri, to: Uri) => rename(from.fsPath, to.fsPath),
  },
};
