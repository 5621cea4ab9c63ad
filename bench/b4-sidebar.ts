/**
 * B4, the sidebar with a long history: the real sidebar (src/webview) in headless Chromium, in the real
 * HTML shell with its Content-Security-Policy, handed a snapshot of 100,000 tasks the way VS Code delivers
 * it (window.postMessage). Timed inside the page: the first render (message → DOM built → laid out), one
 * status update, and the DOM nodes on the page (the tree is virtualized: only the visible rows exist).
 */
import * as nodePath from 'node:path';
import type { FirstRenderTiming, RenderTiming, SidebarBench } from './sidebar/page.js';
import { servePage } from './sidebar/page-server.js';
import { type BenchBrowser, launchChromium } from './support/chromium.js';
import { bundleForBrowser } from './support/runtime-bundle.js';
import { median, percentile } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

/** The first render of 100,000 tasks, at most (ms): one frame at 60 Hz, issue 43 (was 100, and 250 before). C1's curve is judged on it too. */
export const firstRenderTargetMs = 17;

/** A sidebar: narrow and tall. */
const viewport = { width: 360, height: 900 };

async function openSidebarPage(browser: BenchBrowser, url: string) {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message ?? 'page error'));
  page.on('console', (message) => {
    const text = message.text?.() ?? '';
    if (/Content Security Policy|Refused/.test(text)) problems.push(text);
  });
  await page.goto(url);
  await page.waitForFunction('window.sidebarBench !== undefined');
  if (problems.length > 0) throw new Error(`the sidebar page reported: ${problems[0]}`);
  return page;
}

export interface SidebarFigures {
  /** One per fresh page. */
  firstRenders: FirstRenderTiming[];
  /** On the last page, after its first render. */
  updates: RenderTiming[];
  validateAgainMs: number;
}

/** `pages` first renders of `taskCount` tasks, each on a fresh page (cold, as when the sidebar is opened); then `updates` status updates on the last. */
export async function measureSidebar(
  browser: BenchBrowser,
  url: string,
  taskCount: number,
  pages: number,
  updates: number,
): Promise<SidebarFigures> {
  const firstRenders: FirstRenderTiming[] = [];
  let updateTimings: RenderTiming[] = [];
  let validateAgainMs = 0;
  for (let index = 0; index < pages; index++) {
    const page = await openSidebarPage(browser, url);
    try {
      firstRenders.push(
        await page.evaluate((count) => (window as unknown as { sidebarBench: SidebarBench }).sidebarBench.firstRender(count), taskCount),
      );
      if (index === pages - 1) {
        validateAgainMs = await page.evaluate(
          () => (window as unknown as { sidebarBench: SidebarBench }).sidebarBench.validateAgainMs(),
          undefined,
        );
        updateTimings = await page.evaluate(async (rounds) => {
          const bench = (window as unknown as { sidebarBench: SidebarBench }).sidebarBench;
          const timings: RenderTiming[] = [];
          for (let round = 0; round < rounds; round++) timings.push(await bench.statusUpdate(round));
          return timings;
        }, updates);
      }
    } finally {
      await page.close();
    }
  }
  return { firstRenders, updates: updateTimings, validateAgainMs };
}

/** The sidebar page's server, with the page script bundled for the browser. */
export async function serveSidebarPage() {
  return servePage(await bundleForBrowser(nodePath.resolve('bench/sidebar/page.ts')));
}

export const sidebarWithLongHistory: Benchmark = {
  id: 'B4',
  title: 'sidebar, long history',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const taskCount = context.quick ? 1_000 : 100_000;
    const pages = context.quick ? 1 : 5;
    const updates = context.quick ? 20 : 100;
    const launched = await launchChromium();
    if ('unavailable' in launched) return { measurements: [], skipped: launched.unavailable };
    const { browser } = launched;
    const server = await serveSidebarPage();
    try {
      const {
        firstRenders,
        updates: updateTimings,
        validateAgainMs,
      } = await measureSidebar(browser, server.url, taskCount, pages, updates);
      const first = median(firstRenders.map((render) => render.totalMs));
      const firstOf = (field: keyof RenderTiming) => median(firstRenders.map((render) => render[field]));
      const update = median(updateTimings.map((timing) => timing.totalMs));
      const updateP95 = percentile(
        updateTimings.map((timing) => timing.totalMs),
        0.95,
      );
      const domNodes = Math.max(...firstRenders.map((render) => render.domNodes));
      context.log(
        `B4: first render ${first.toFixed(1)} ms (waited ${firstOf('waitMs').toFixed(1)} in the queue, not counted; validating it again, warm: ${validateAgainMs.toFixed(1)} ms); update ${update.toFixed(2)} ms; ${domNodes} nodes`,
      );
      return {
        measurements: [
          {
            name: `first render, ${taskCount.toLocaleString('en-US')} tasks (median of ${pages})`,
            value: first,
            unit: 'ms',
            target: firstRenderTargetMs,
            display: `${first.toFixed(1)} ms (clone ${(firstOf('cloneMs') + firstOf('readMs')).toFixed(1)}, validate+store ${firstOf('receiveMs').toFixed(1)}, DOM ${firstOf('renderMs').toFixed(1)}, layout ${firstOf('layoutMs').toFixed(1)}; then the other ${firstRenders[0].messages - 1} messages ${median(firstRenders.map((render) => render.restMs)).toFixed(1)})`,
          },
          {
            name: `one status update (median of ${updates})`,
            value: update,
            unit: 'ms',
            target: 4,
            display: `${update.toFixed(2)} ms (p95 ${updateP95.toFixed(2)})`,
          },
          { name: 'DOM nodes', value: domNodes, unit: 'nodes', target: 300, display: `${domNodes} nodes (${firstRenders[0].rows} rows)` },
        ],
        details: { taskCount, viewport, chromium: browser.version(), validateAgainMs, firstRenders, updates: updateTimings },
      };
    } finally {
      await browser.close();
      await server.close();
    }
  },
};
