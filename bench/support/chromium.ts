/**
 * Headless Chromium for B4: Debian's /usr/bin/chromium driven by playwright-core from the e2e tooling's
 * cache (test/e2e/tooling: setup.sh installs it there, paths.mjs says where). Neither is a dependency of
 * the project, so a machine without them gets a reason to print instead of a browser.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';

const toolingPaths = nodePath.resolve('test/e2e/tooling/paths.mjs');
const notInstalled = 'chromium/playwright not installed (run test/e2e/tooling/setup.sh)';

/** The flags every launch gets: without the background-networking ones Chromium calls out to the closed network. */
const chromiumArguments = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The little of playwright-core's API the benchmarks use (it is not installed in the project). */
export interface BenchPage {
  goto(url: string): Promise<unknown>;
  waitForFunction(expression: string): Promise<unknown>;
  on(event: 'console' | 'pageerror', listener: (message: { text?(): string; message?: string }) => void): void;
  evaluate<Result, Argument>(pageFunction: (argument: Argument) => Result | Promise<Result>, argument: Argument): Promise<Result>;
  close(): Promise<void>;
}

export interface BenchBrowser {
  newPage(options: { viewport: { width: number; height: number } }): Promise<BenchPage>;
  version(): string;
  close(): Promise<void>;
}

interface Playwright {
  chromium: { launch(options: { executablePath: string; headless: boolean; args: string[]; timeout: number }): Promise<BenchBrowser> };
}

interface ToolingPaths {
  playwrightCore: string;
  chromium: string;
}

/** A launched browser, or why there is none. */
export async function launchChromium(): Promise<{ browser: BenchBrowser } | { unavailable: string }> {
  if (!existsSync(toolingPaths)) return { unavailable: notInstalled };
  // A computed path, so the bundler leaves this import to run time.
  const { paths } = (await import(pathToFileURL(toolingPaths).href)) as { paths: ToolingPaths };
  const playwrightPackage = nodePath.join(paths.playwrightCore, 'package.json');
  if (!existsSync(playwrightPackage) || !existsSync(paths.chromium)) return { unavailable: notInstalled };
  const playwright = createRequire(playwrightPackage)('playwright-core') as Playwright;
  const browser = await playwright.chromium.launch({
    executablePath: paths.chromium,
    headless: true,
    args: chromiumArguments,
    timeout: 60_000,
  });
  return { browser };
}
