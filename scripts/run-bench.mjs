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
  external: ['playwright-core'],
  // As the product is built: the libraries loaded on first use stay in bundles of their own.
  plugins: [vendorPlugin],
  logLevel: 'warning',
});
await Promise.all(vendorBuilds('.bench-results').map((options) => esbuild.build(options)));
const result = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', '.bench-results/bench.cjs', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
