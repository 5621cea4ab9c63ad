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
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { bundleForNode } from './support/runtime-bundle.js';
import { bytesPerMegabyte, median } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

const bundles = ['dist/extension.js', 'dist/extension-core.js', 'dist/webview/main.js', 'dist/cli.js'];
/** Written by the end-to-end journey `activation` (test/e2e/journeys/activation.mjs). */
const realHostFigure = '.bench-results/code-server-activation.json';
const vsix = 'dist/agent-team.vsix';
const probeBundle = '.bench-results/activation-probe.cjs';

interface ActivationTiming {
  loadMs: number;
  activateMs: number;
  /** CPU time of loading and activating (the probe's process.cpuUsage()). */
  cpuMs: number;
  /** Loading and starting the core on first use; null when the probe could not. */
  coreMs: number | null;
  /** Its CPU time (steadier than the wall time on a busy machine). */
  coreCpuMs: number;
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
  if (result.status !== 0)
    throw new Error(
      `npm run package failed (${result.status}): ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}`,
    );
}

/** The global storage later windows share: the core's code cache (src/extension/core-code-cache.ts) is kept there. */
const keptGlobalStorage = '.bench-results/b5-global-storage';

/** One window: a first one (a fresh global storage, no code cache) or, with `kept`, a later one. */
function activateOnce(kept = false): ActivationTiming {
  const probeArguments = [probeBundle, 'dist/extension.js', ...(kept ? [keptGlobalStorage] : [])];
  const result = spawnSync(process.execPath, probeArguments, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0)
    throw new Error(`the activation probe failed (${result.status}): ${result.stderr.trim().split('\n').slice(0, 3).join(' ')}`);
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
    rmSync(keptGlobalStorage, { recursive: true, force: true });
    activateOnce(true); // the first window after the install: it leaves the code cache for the later ones
    // First and later windows alternately, so both meet the same load.
    const pairs = Array.from({ length: runs }, () => [activateOnce(), activateOnce(true)] as const);
    const timings = pairs.map(([first]) => first);
    const laterCore = median(pairs.flatMap(([, later]) => (later.coreMs === null ? [] : [later.coreMs])));
    const total = median(timings.map((timing) => timing.loadMs + timing.activateMs));
    const load = median(timings.map((timing) => timing.loadMs));
    const activate = median(timings.map((timing) => timing.activateMs));
    const activationCpu = median(timings.map((timing) => timing.cpuMs));
    if (timings[0].subscriptions === 0) context.log('B5: activate registered nothing (is the extension still a stub?)');
    context.log(
      `B5: activation ${total.toFixed(1)} ms (load ${load.toFixed(1)}, activate ${activate.toFixed(1)}; CPU ${activationCpu.toFixed(1)}), ${timings[0].subscriptions} subscriptions`,
    );
    const sizes = Object.fromEntries([...bundles, vsix].map((file) => [file, statSync(file).size]));
    const realHost = realHostActivation(context);
    const coreTimes = timings.flatMap((timing) => (timing.coreMs === null ? [] : [timing.coreMs]));
    const core = coreTimes.length > 0 ? median(coreTimes) : null;
    const coreCpu = median(timings.map((timing) => timing.coreCpuMs));
    const laterCoreCpu = median(pairs.map(([, later]) => later.coreCpuMs));
    return {
      measurements: [
        {
          name: `activation (median of ${runs})`,
          value: total,
          unit: 'ms',
          target: 30,
          display: `${total.toFixed(1)} ms (load ${load.toFixed(1)} + activate ${activate.toFixed(1)}; CPU ${activationCpu.toFixed(1)})`,
        },
        {
          name: 'first use: the core loaded and started, first window after an install (no code cache)',
          value: core,
          unit: 'ms',
          display: core === null ? 'not measured' : `${core.toFixed(1)} ms (CPU ${coreCpu.toFixed(1)})`,
          note: 'paid once per window, by the first command or the view',
        },
        {
          name: "first use: the core loaded and started, later windows (the core's code cache)",
          value: laterCore,
          unit: 'ms',
          target: 60,
          display: `${laterCore.toFixed(1)} ms (CPU ${laterCoreCpu.toFixed(1)}; median of ${runs}, alternating with the first-window figure)`,
        },
        {
          name: "activation in code-server's extension host",
          value: realHost?.activationMs ?? null,
          unit: 'ms',
          target: 30,
          display: realHost
            ? `${realHost.activationMs} ms (${realHost.text}, Running Extensions; an empty extension in the same windows: ${realHost.emptyText})`
            : 'not measured',
          ...(realHost ? {} : { note: 'run the e2e journey `activation` (needs code-server: npm run test:e2e)' }),
        },
        { name: '.vsix size', value: megabytes(vsix), unit: 'MB', target: 1.5, display: `${megabytes(vsix).toFixed(2)} MB` },
        ...bundles.map((file) => ({ name: file, value: megabytes(file), unit: 'MB', display: `${megabytes(file).toFixed(2)} MB` })),
      ],
      details: { sizes, activations: timings, ...(realHost ? { realHost } : {}) },
    };
  },
};

/** What the journey `activation` writes (test/e2e/journeys/activation.mjs). */
interface RealHostFigure {
  activationMs: number;
  text: string;
  /** The test-only empty extension's activation time, in the same window just before ours. */
  emptyActivationMs?: number;
}

/**
 * The activation time VS Code's own extension host measured (code loading + the activate call, as its
 * Running Extensions editor shows it), for the view opened in a settled window, and beside it the time
 * of an empty extension activated in the same window: what the host spends on activating any extension,
 * under the same load (a `--load` run's workers run meanwhile, code-server and the browser with them).
 * The full run measures three windows with the end-to-end journey `activation` in code-server, on the
 * package it has just made (`--vsix`: the journey does not package again), and reports the medians, since
 * the host's own load varies from window to window; the quick run only reads a figure an earlier run
 * left, if it is newer than the bundle.
 */
function realHostActivation(context: BenchmarkContext): { activationMs: number; text: string; emptyText: string } | undefined {
  // Quick: only a figure newer than the bundle. Full: the file is removed before each window, so one that
  // is there is this window's (a build running meanwhile may have made the bundle newer).
  const read = (newerThanBundle: boolean) =>
    existsSync(realHostFigure) && (!newerThanBundle || statSync(realHostFigure).mtimeMs >= statSync('dist/extension.js').mtimeMs)
      ? (JSON.parse(readFileSync(realHostFigure, 'utf8')) as RealHostFigure)
      : undefined;
  const describeEmpty = (values: number[]) => (values.length > 0 ? `${median(values)} ms` : 'not measured');
  if (context.quick) {
    const figure = read(true);
    return (
      figure && {
        activationMs: figure.activationMs,
        text: figure.text,
        emptyText: describeEmpty(figure.emptyActivationMs === undefined ? [] : [figure.emptyActivationMs]),
      }
    );
  }
  const figures: number[] = [];
  const empties: number[] = [];
  for (let window = 0; window < 3; window++) {
    context.log(`B5: the activation journey in code-server, window ${window + 1} of 3 (node test/e2e/run.mjs --vsix ${vsix} activation)`);
    rmSync(realHostFigure, { force: true });
    const run = spawnSync(process.execPath, ['test/e2e/run.mjs', '--vsix', vsix, 'activation'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
    });
    const figure = read(false);
    if (run.status !== 0 || !figure) {
      context.log(
        `B5: the activation journey failed (${run.status}); ${(run.stderr || run.stdout).trim().split('\n').slice(-2).join(' ')}`,
      );
      continue;
    }
    figures.push(figure.activationMs);
    if (figure.emptyActivationMs !== undefined) empties.push(figure.emptyActivationMs);
  }
  if (figures.length === 0) return undefined;
  return {
    activationMs: median(figures),
    text: `median of ${figures.join(', ')} ms`,
    emptyText: empties.length > 0 ? `${describeEmpty(empties)} (${empties.join(', ')})` : describeEmpty(empties),
  };
}
