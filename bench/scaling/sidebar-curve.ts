/**
 * B4 at growing sizes: the real sidebar in headless Chromium handed histories of N tasks; its first
 * render (what stands between opening the sidebar and seeing it) and one status update, per size.
 * The snapshot comes in parts (newest delegations first), so the first render should not grow with N;
 * the rest of the snapshot, handled after the first paint, does, and is kept in the details.
 */
import { measureSidebar, serveSidebarPage } from '../b4-sidebar.js';
import { launchChromium } from '../support/chromium.js';
import { median, percentile } from '../support/stats.js';

export interface SidebarPoint {
  tasks: number;
  /** Median over fresh pages, ms. */
  firstRenderMs: number;
  /** The snapshot's other messages, after the first paint, ms (median over pages). */
  restMs: number;
  updateMs: number;
  updateP95Ms: number;
  domNodes: number;
}

export async function sidebarCurve(
  sizes: readonly number[],
  pages: number,
  updates: number,
  log: (line: string) => void,
): Promise<SidebarPoint[] | { unavailable: string }> {
  const launched = await launchChromium();
  if ('unavailable' in launched) return launched;
  const { browser } = launched;
  const server = await serveSidebarPage();
  try {
    await measureSidebar(browser, server.url, 1_000, 1, 10); // warm-up: the browser's caches and compiled code
    const points: SidebarPoint[] = [];
    for (const tasks of sizes) {
      const figures = await measureSidebar(browser, server.url, tasks, pages, updates);
      const updateTimes = figures.updates.map((timing) => timing.totalMs);
      const point: SidebarPoint = {
        tasks,
        firstRenderMs: median(figures.firstRenders.map((render) => render.totalMs)),
        restMs: median(figures.firstRenders.map((render) => render.restMs)),
        updateMs: median(updateTimes),
        updateP95Ms: percentile(updateTimes, 0.95),
        domNodes: Math.max(...figures.firstRenders.map((render) => render.domNodes)),
      };
      log(
        `C1 B4: ${tasks.toLocaleString('en-US')} tasks: first render ${point.firstRenderMs.toFixed(1)} ms (rest of the snapshot ${point.restMs.toFixed(0)} ms), update ${point.updateMs.toFixed(2)} ms, ${point.domNodes} nodes`,
      );
      points.push(point);
    }
    return points;
  } finally {
    await browser.close();
    await server.close();
  }
}
