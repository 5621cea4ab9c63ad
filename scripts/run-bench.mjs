// Bundles the benchmark suite (TypeScript) with esbuild and runs it: `npm run bench [-- --quick] [-- B1 B3]`.
import * as esbuild from 'esbuild';
import { vendorBuilds, vendorPlugin } from './vendor-bundles.mjs';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

mkdirSync('.bench-results', { recursive: true });
await esbuild.build({
  entryPoints: ['bench/run.ts'],
  outfile: '.bench-results/bench.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  // jsdom (B16's webview) is loaded from node_modules at run time: it reads files of its own beside its code.
  external: ['playwright-core', 'jsdom'],
  // B16 drives the sidebar's real host code, which imports `vscode`: bench/b16/vscode-stand-in.ts serves what it uses.
  alias: { vscode: './bench/b16/vscode-stand-in.ts' },
  // As the product is built: the libraries loaded on first use stay in bundles of their own.
  plugins: [vendorPlugin],
  logLevel: 'warning',
});
await Promise.all(vendorBuilds('.bench-results').map((options) => esbuild.build(options)));
const result = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', '.bench-results/bench.cjs', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
