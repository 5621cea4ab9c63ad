// @ts-check
/**
 * Vendor libraries that modules of ours import statically (`import { parse } from 'yaml'`) but that the
 * first command rarely needs: the bundles load them on first call instead of at load. Each import resolves
 * to a small module of stand-ins, one per name below, that `require` the vendor bundle the first time one
 * of them is called (or constructed, or used with `instanceof`), then hand the call on. Only static
 * imports are rewritten; `import('yaml')` already loads on first use.
 *
 * Why: `role-result-fields.ts` (Ajv, through json-schema.ts) and the role, workflow and checks parsers
 * (YAML) are on the core's import graph, so loading the extension's core evaluated both libraries, about a
 * tenth of the first use (B5 in docs/performance.md), whether or not a role file was read.
 *
 * Every name a module of ours imports must be listed: a name left out is a build error ("No matching
 * export"), never a silent undefined.
 */

/** Import path → [its vendor bundle in dist/vendor, the names our modules import from it]. */
export const lazyVendorImports = {
  yaml: ['yaml', ['parse', 'parseDocument', 'LineCounter', 'isMap', 'isScalar']],
  './ajv-sdk.js': ['ajv', ['Ajv', 'Ajv2020', 'MissingRefError']],
};

/**
 * The stand-ins' source. A stand-in is a function: called, it calls the library's; with `new`, it builds
 * the library's class (a constructor that returns an object gives that object); `instanceof` asks the
 * library's class. Every name is a function or a class in both libraries.
 * @param {string} bundle
 * @param {string[]} names
 */
function standIns(bundle, names) {
  const lines = [
    'let loaded;',
    // The CommonJS vendor bundle may hold the named exports under `default`.
    `const load = (name) => { loaded ??= require(${JSON.stringify(`./vendor/${bundle}.js`)}); return loaded[name] ?? loaded.default[name]; };`,
  ];
  for (const name of names) {
    lines.push(
      `export function ${name}(...args) { const real = load(${JSON.stringify(name)}); return new.target ? new real(...args) : real.apply(this, args); }`,
      `Object.defineProperty(${name}, Symbol.hasInstance, { value: (value) => value instanceof load(${JSON.stringify(name)}) });`,
    );
  }
  return lines.join('\n');
}

/** Registers the stand-ins for static imports; returns the filter of the paths it handles. */
export function lazyVendorSetup(/** @type {import('esbuild').PluginBuild} */ build) {
  const paths = Object.keys(lazyVendorImports);
  const filter = new RegExp(`^(${paths.map((name) => name.replace(/[./]/g, '\\$&')).join('|')})$`);
  build.onResolve({ filter }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'lazy-vendor' } : undefined));
  build.onResolve({ filter: /^\.\/vendor\//, namespace: 'lazy-vendor' }, (args) => ({ path: args.path, external: true }));
  build.onLoad({ filter: /.*/, namespace: 'lazy-vendor' }, (args) => {
    const [bundle, names] = lazyVendorImports[/** @type {keyof typeof lazyVendorImports} */ (args.path)];
    return { contents: standIns(bundle, names), loader: 'js', resolveDir: process.cwd() };
  });
}
