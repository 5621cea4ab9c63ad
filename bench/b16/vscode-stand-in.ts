/**
 * The `vscode` module as B16's sidebar half needs it (scripts/run-bench.mjs aliases `vscode` here): the
 * sidebar's host code (src/extension/sidebar) touches only `Uri`, `Disposable` and `commands` at run
 * time. The extension tests' `Uri` and `Disposable`; commands do nothing. The extension tests' whole fake
 * is not used: it reads the manifest from a path relative to its own file, which a bundle moves.
 */
export { Disposable, EventEmitter, Uri } from '../../test/extension/support/fake-basics.js';

export const commands = {
  executeCommand: async (): Promise<undefined> => undefined,
};
