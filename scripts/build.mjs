// Builds the bundles: the extension (its activation shell and its core, node, cjs, vscode external), the
// webview (browser) and the CLI,
// plus the vendor bundles they load on first use.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { reExportOncePlugin } from './re-export-once.mjs';
import { vendorBuilds, vendorPlugin } from './vendor-bundles.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const version = JSON.parse(readFileSync('package.json', 'utf8')).version;

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'info',
  legalComments: 'none',
};

/** The activation shell loads the core (`import('./extension-core.js')`) from its own bundle, beside it. */
const corePlugin = {
  name: 'extension-core',
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\/extension-core\.js$/ }, () => ({ path: './extension-core.js', external: true }));
  },
};

const builds = [
  {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [corePlugin, vendorPlugin],
    // The core is loaded with `require`, not `import()`: Node's import() of a CommonJS file first lexes its
    // whole source for named exports and module syntax (cjs-module-lexer), a third of the core's first use (B5).
    supported: { 'dynamic-import': false },
    // The core is compiled with V8's code cache (src/extension/core-code-cache.ts).
    define: { AGENT_TEAM_CORE_CODE_CACHE: 'true' },
  },
  {
    ...common,
    entryPoints: ['src/extension/extension-core.ts'],
    outfile: 'dist/extension-core.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // `vscode` and `node:path` re-exported once, not copied for each module that imports them (re-export-once.mjs).
    plugins: [reExportOncePlugin, vendorPlugin],
    // The core runs in a vm.Script (its code cache), where import() has no loader: the vendor bundles
    // (CommonJS) are loaded with require, which also skips Node's lexing of their source for named exports.
    supported: { 'dynamic-import': false },
  },
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview/main.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    define: { AGENT_TEAM_VERSION: JSON.stringify(version) },
    plugins: [vendorPlugin],
  },
  ...vendorBuilds('dist', { minify: production }),
];

if (production) rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/webview', { recursive: true });
cpSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/webview/codicon.css');
cpSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/webview/codicon.ttf');

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
