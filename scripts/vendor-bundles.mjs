// @ts-check
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyVendorSetup } from './lazy-vendor.mjs';
/**
 * Large libraries the engine loads with `import()` on first use (the provider SDKs at the first model
 * request, YAML at the first role file, the RE2 regex engine at the first Glob or Grep, the MCP client
 * when a role with MCP servers starts, the A2A client when a remote role's task starts, the bash parser at
 * the first command judged, the HTML converter at the first web page fetched, OpenTelemetry when an
 * endpoint is configured, Ajv with the role files' JSON Schemas) live in bundles
 * of their own, so that VS Code does not even compile them when the extension activates (B5 in
 * docs/performance.md).
 */
export const vendorBundles = {
  '@anthropic-ai/sdk': 'anthropic-sdk',
  openai: 'openai',
  yaml: 'yaml',
  re2js: 're2js',
  'mvdan-sh': 'mvdan-sh',
  turndown: 'turndown',
};

/** Modules of our own that gather a library's parts into one bundle: import path → [bundle, entry file]. */
export const localVendorBundles = {
  './mcp-client-sdk.js': ['mcp-client', 'src/engine/mcp/mcp-client-sdk.ts'],
  './a2a-client-sdk.js': ['a2a-client', 'src/engine/a2a/a2a-client-sdk.ts'],
  './otlp-telemetry.js': ['otlp-telemetry', 'src/engine/telemetry/otlp-telemetry.ts'],
  './ajv-sdk.js': ['ajv', 'src/engine/roles/ajv-sdk.ts'],
};

/** Points imports of the vendor libraries at their bundles in dist/vendor. */
export const vendorPlugin = {
  name: 'vendor-bundles',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    // Registered first: static imports of YAML and Ajv become stand-ins that load them on first call.
    lazyVendorSetup(build);
    const filter = new RegExp(
      `^(${Object.keys(vendorBundles)
        .map((name) => name.replace(/[/]/g, '\\/'))
        .join('|')})$`,
    );
    build.onResolve({ filter }, (args) => ({
      path: `./vendor/${vendorBundles[/** @type {keyof typeof vendorBundles} */ (args.path)]}.js`,
      external: true,
    }));
    const local = new RegExp(
      `^(${Object.keys(localVendorBundles)
        .map((name) => name.replace(/[./]/g, '\\$&'))
        .join('|')})$`,
    );
    build.onResolve({ filter: local }, (args) => ({
      path: `./vendor/${localVendorBundles[/** @type {keyof typeof localVendorBundles} */ (args.path)][0]}.js`,
      external: true,
    }));
  },
};

/**
 * The esbuild options of the vendor bundles, written to `<outputDirectory>/vendor/<name>.js` beside the
 * bundles that load them.
 * @param {string} outputDirectory
 * @param {{ minify?: boolean }} options
 * @returns {import('esbuild').BuildOptions[]}
 */
export function vendorBuilds(outputDirectory, options = {}) {
  const common = {
    bundle: true,
    minify: options.minify ?? false,
    legalComments: /** @type {const} */ ('none'),
    logLevel: /** @type {const} */ ('warning'),
    platform: /** @type {const} */ ('node'),
    format: /** @type {const} */ ('cjs'),
    target: 'node20',
  };
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const local = Object.values(localVendorBundles).map(([file, entry]) => ({
    ...common,
    // OpenTelemetry's ES module builds let esbuild drop what we never call (its metrics, most semantic
    // conventions): 60 KB instead of 390 KB.
    ...(file === 'otlp-telemetry' ? { mainFields: ['module', 'main'] } : {}),
    entryPoints: [path.join(repoRoot, entry)],
    outfile: `${outputDirectory}/vendor/${file}.js`,
  }));
  const libraries = Object.entries(vendorBundles).map(([name, file]) => ({
    ...common,
    stdin: {
      contents: `module.exports = require(${JSON.stringify(name)});`,
      resolveDir: process.cwd(),
      loader: /** @type {const} */ ('js'),
    },
    outfile: `${outputDirectory}/vendor/${file}.js`,
  }));
  return [...local, ...libraries];
}
