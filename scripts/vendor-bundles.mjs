// @ts-check
/**
 * Large libraries the engine loads with `import()` on first use (the provider SDKs at the first model
 * request, YAML at the first role file, the RE2 regex engine at the first Glob or Grep) live in bundles
 * of their own, so that VS Code does not even compile them when the extension activates (B5 in
 * docs/performance.md).
 */
export const vendorBundles = { '@anthropic-ai/sdk': 'anthropic-sdk', openai: 'openai', yaml: 'yaml', re2js: 're2js' };

/** Points imports of the vendor libraries at their bundles in dist/vendor. */
export const vendorPlugin = {
  name: 'vendor-bundles',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(vendorBundles).map((name) => name.replace(/[/]/g, '\\/')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: `./vendor/${vendorBundles[/** @type {keyof typeof vendorBundles} */ (args.path)]}.js`, external: true }));
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
  return Object.entries(vendorBundles).map(([name, file]) => ({
    bundle: true,
    minify: options.minify ?? false,
    legalComments: 'none',
    logLevel: 'warning',
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: process.cwd(), loader: 'js' },
    outfile: `${outputDirectory}/vendor/${file}.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  }));
}
