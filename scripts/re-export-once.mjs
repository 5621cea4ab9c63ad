// @ts-check
/**
 * External CommonJS modules that many of the core's modules import as a namespace or a default
 * (`import * as vscode from 'vscode'`, `import path from 'node:path'`): esbuild turns each such import
 * into its own `__toESM(require(…))`, a fresh copy of every property of the module's exports, made while
 * the core loads. VS Code's API object has about 200 names and ~70 of the core's modules import it: 12 ms
 * of CPU of the core's first use in B5 (docs/performance.md), interleaved. This plugin points each import
 * at one ES module of the bundle that re-exports the external module once (its properties read through,
 * live, as before) and gives it as the default too, as Node does for a CommonJS module.
 */

/** The external modules re-exported once. */
export const reExportedOnce = ['vscode', 'node:path'];

/** @type {import('esbuild').Plugin} */
export const reExportOncePlugin = {
  name: 're-export-once',
  setup(build) {
    const filter = new RegExp(`^(${reExportedOnce.map((name) => name.replace(/[.:/]/g, '\\$&')).join('|')})$`);
    // Only import statements: a `require` is left as it is. Imports from the re-exporting module itself are the real, external one.
    build.onResolve({ filter }, (args) => {
      if (args.namespace === 're-export-once') return { path: args.path, external: true };
      return args.kind === 'import-statement' ? { path: args.path, namespace: 're-export-once' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 're-export-once' }, (args) => ({
      contents: `export * from ${JSON.stringify(args.path)};\nexport default require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};
