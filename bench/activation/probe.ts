/**
 * B5's activation probe, bundled on its own and run in a fresh Node process per measurement:
 * `node activation-probe.cjs <dist/extension.js> [global storage kept between runs]`. Loads the extension bundle with a fake `vscode` module
 * and calls `activate`; prints `{"loadMs", "activateMs", "cpuMs", "coreMs", "coreCpuMs", "subscriptions"}` as one JSON line
 * (`cpuMs`: the CPU time of loading and activating, beside their wall time; `coreCpuMs`: that of the core's first use, `coreMs`). Kept small, so
 * the process has loaded next to nothing the extension would otherwise load itself.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFakeVscode } from '../support/fake-vscode.js';

interface ExtensionModule {
  activate(context: unknown): unknown;
  /** The activation shell's loader of everything else (src/extension/extension.ts). */
  loadCore?(): Promise<unknown>;
}

const fake = createFakeVscode(process.cwd());

/**
 * VS Code's API object holds about 200 names (every class, enum, namespace and function of @types/vscode);
 * the fake only those the extension calls (26). Bundled code may copy the API's properties for each module
 * that imports it (esbuild's `__toESM`), a cost that grows with their number: the fake gets the real one's
 * size, the names it lacks as placeholders.
 */
function giveRealApiSize(module: Record<string, unknown>): void {
  const typings = readFileSync(createRequire(nodePath.resolve('package.json')).resolve('@types/vscode/index.d.ts'), 'utf8');
  for (const [, name] of typings.matchAll(/^\texport (?:class|enum|namespace|const|function|let) (\w+)/gm))
    if (!(name in module)) module[name] = {};
}
giveRealApiSize(fake.module as Record<string, unknown>);
/** A global storage kept from one probe to the next (argv[3]): later windows, with the core's code cache (src/extension/core-code-cache.ts). */
const keptGlobalStorage = process.argv[3];
if (keptGlobalStorage)
  (fake.context as { globalStorageUri: unknown }).globalStorageUri = (fake.module as { Uri: { file(path: string): unknown } }).Uri.file(
    nodePath.resolve(keptGlobalStorage),
  );

async function main(bundlePath: string): Promise<void> {
  const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const originalLoad = loader._load;
  loader._load = function (request: string, parent: unknown, isMain: boolean) {
    return request === 'vscode' ? fake.module : originalLoad.call(this, request, parent, isMain);
  };
  const absolute = nodePath.resolve(bundlePath);
  const cpuStart = process.cpuUsage();
  const loadStart = performance.now();
  const extension = createRequire(absolute)(absolute) as ExtensionModule;
  const activateStart = performance.now();
  await extension.activate(fake.context);
  const activateEnd = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  const subscriptions = (fake.context as { subscriptions: unknown[] }).subscriptions.length;
  // What the first command or the view's first opening pays on top: loading and starting the core.
  const coreStart = performance.now();
  const coreCpuStart = process.cpuUsage();
  const coreMs = extension.loadCore
    ? await extension.loadCore().then(
        () => performance.now() - coreStart,
        () => null,
      )
    : null;
  const coreCpu = process.cpuUsage(coreCpuStart);
  // The core writes its code cache after the turn that started it (when it had none to use).
  await new Promise((resolve) => setImmediate(resolve));
  process.stdout.write(
    `${JSON.stringify({ loadMs: activateStart - loadStart, activateMs: activateEnd - activateStart, cpuMs: (cpu.user + cpu.system) / 1000, coreMs, coreCpuMs: (coreCpu.user + coreCpu.system) / 1000, subscriptions })}\n`,
  );
}

main(process.argv[2] ?? 'dist/extension.js').then(
  // Whatever activation started (history loading, timers) is not part of the measurement.
  () => {
    fake.dispose();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    fake.dispose();
    process.exit(1);
  },
);
