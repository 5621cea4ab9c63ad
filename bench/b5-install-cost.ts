/**
 * B5, the cost of being installed: extension activation time, the .vsix size, the bundle sizes.
 *
 * Activation loads the production dist/extension.js in a fresh Node process with a fake `vscode` module
 * (bench/support/fake-vscode.ts) and calls `activate`: code loading plus the activate call, as VS Code
 * reports them. It measures our own code only, not VS Code's extension host, and without V8's code cache.
 * The full run packages first (`npm run package`); the quick run reuses a production build and package
 * that are already there, and makes them when they are not.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { bundleForNode } from './support/runtime-bundle.js';
import { bytesPerMegabyte, median } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

const bundles = ['dist/extension.js', 'dist/webview/main.js', 'dist/cli.js'];
const vsix = 'dist/agent-team.vsix';
const probeBundle = '.bench-results/activation-probe.cjs';

interface ActivationTiming {
  loadMs: number;
  activateMs: number;
  subscriptions: number;
}

/** True when dist holds a production build (no source maps) and a package made from it. */
function productionPackagePresent(): boolean {
  if (!bundles.every((file) => existsSync(file)) || existsSync('dist/extension.js.map') || !existsSync(vsix)) return false;
  return statSync(vsix).mtimeMs >= statSync('dist/extension.js').mtimeMs;
}

function packageExtension(context: BenchmarkContext): void {
  context.log('B5: npm run package (production build and .vsix)');
  const result = spawnSync('npm', ['run', 'package'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`npm run package failed (${result.status}): ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}`);
}

function activateOnce(): ActivationTiming {
  const result = spawnSync(process.execPath, [probeBundle, 'dist/extension.js'], { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`the activation probe failed (${result.status}): ${result.stderr.trim().split('\n').slice(0, 3).join(' ')}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as ActivationTiming;
}

function megabytes(file: string): number {
  return statSync(file).size / bytesPerMegabyte;
}

export const installCost: Benchmark = {
  id: 'B5',
  title: 'cost of being installed',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    if (!context.quick || !productionPackagePresent()) packageExtension(context);
    await bundleForNode(nodePath.resolve('bench/activation/probe.ts'), probeBundle);
    const runs = context.quick ? 3 : 9;
    activateOnce(); // warms the OS file cache, as an installed extension's files would be
    const timings = Array.from({ length: runs }, activateOnce);
    const total = median(timings.map((timing) => timing.loadMs + timing.activateMs));
    const load = median(timings.map((timing) => timing.loadMs));
    const activate = median(timings.map((timing) => timing.activateMs));
    if (timings[0].subscriptions === 0) context.log('B5: activate registered nothing (is the extension still a stub?)');
    context.log(`B5: activation ${total.toFixed(1)} ms (load ${load.toFixed(1)}, activate ${activate.toFixed(1)}), ${timings[0].subscriptions} subscriptions`);
    const sizes = Object.fromEntries([...bundles, vsix].map((file) => [file, statSync(file).size]));
    return {
      measurements: [
        { name: `activation (median of ${runs})`, value: total, unit: 'ms', target: 30, display: `${total.toFixed(1)} ms (load ${load.toFixed(1)} + activate ${activate.toFixed(1)})` },
        { name: '.vsix size', value: megabytes(vsix), unit: 'MB', target: 1.5, display: `${megabytes(vsix).toFixed(2)} MB` },
        ...bundles.map((file) => ({ name: file, value: megabytes(file), unit: 'MB', display: `${megabytes(file).toFixed(2)} MB` })),
      ],
      details: { sizes, activations: timings },
    };
  },
};
