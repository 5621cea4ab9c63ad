// Open code-server's VS Code in Debian's Chromium, driven by playwright-core.
//
//   import { openVSCode, runCommand, isRestrictedMode } from './browser.mjs';
//   const vs = await openVSCode(cs.url, workspaceDir);
//   await runCommand(vs.page, 'File: New Untitled Text File');
//   await vs.close();
//
// `npx playwright install` cannot work here (no download), so this always
// launches /usr/bin/chromium (or $AGENT_TEAM_E2E_CHROMIUM).
import { importPlaywright, paths } from './paths.mjs';

/** Flags every launch gets. Without the background-networking ones Chromium hammers the closed network. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Selector that exists once the workbench has laid out its parts. */
export const WORKBENCH_READY = '.monaco-workbench .part.statusbar';

/**
 * Launch Chromium on a fresh profile and open VS Code at `url`.
 *
 * @param {string} url       code-server base URL (startCodeServer().url)
 * @param {string} [folder]  absolute folder path to open (?folder=...); omit to let code-server pick (its positional folder)
 * @param {object} [opts]
 * @param {boolean} [opts.headless=true]
 * @param {{width:number,height:number}} [opts.viewport={width:1280,height:800}]
 * @param {number} [opts.timeoutMs=60000]  wait for the workbench
 * @param {string[]} [opts.args]           extra Chromium flags
 * @param {string} [opts.userDataDir]      Chromium profile to use and keep; default a fresh temporary one (deleted on close)
 * @returns {Promise<{browser: import('playwright-core').Browser|null, context: import('playwright-core').BrowserContext,
 *   page: import('playwright-core').Page, url: string, consoleErrors: string[], close: () => Promise<void>}>}
 *   browser may be null when opts.userDataDir was given (Playwright's persistent contexts may have no Browser object).
 */
export async function openVSCode(url, folder, opts = {}) {
  const { headless = true, viewport = { width: 1280, height: 800 }, timeoutMs = 60_000, args = [] } = opts;
  const { chromium } = await importPlaywright();
  const launchOpts = { executablePath: paths.chromium, headless, args: [...CHROMIUM_ARGS, ...args], timeout: timeoutMs };
  let browser = null;
  let context;
  if (opts.userDataDir) {
    // A caller-owned profile, kept after close (browser-side state such as localStorage survives).
    context = await chromium.launchPersistentContext(opts.userDataDir, { ...launchOpts, viewport });
    browser = context.browser();
  } else {
    // launch() runs Chromium with a fresh --user-data-dir=/tmp/playwright_chromiumdev_profile-* that Playwright deletes on close.
    browser = await chromium.launch(launchOpts);
    context = await browser.newContext({ viewport });
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await context.close().catch(() => {});
    if (browser) await browser.close().catch(() => {});
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const consoleErrors = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    const target = new URL(url);
    // A multi-root workspace opens from its .code-workspace file; a folder by itself.
    if (opts.workspaceFile) target.searchParams.set('workspace', opts.workspaceFile);
    else if (folder) target.searchParams.set('folder', folder);
    await page.goto(target.href, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
    await waitForWorkbench(page, { timeoutMs });
    return { browser, context, page, url: target.href, consoleErrors, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Wait until the workbench is laid out and the window has settled. */
export async function waitForWorkbench(page, { timeoutMs = 60_000 } = {}) {
  await page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
  await page.waitForSelector(WORKBENCH_READY, { state: 'visible', timeout: timeoutMs });
  // The explorer (or another view) and the editor area exist once the layout is restored.
  await page.waitForSelector('.monaco-workbench .part.editor', { state: 'visible', timeout: timeoutMs });
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Run a command through the command palette with the keyboard: F1, type the label,
 * arrow down to the row whose label is exactly `label`, Enter. (Plain Enter is not
 * enough: fuzzy matching can rank another command first, e.g. "File: Compare New
 * Untitled Text Files" above "File: New Untitled Text File".)
 * Each palette row carries its command id in `data-quick-input-id`.
 *
 * @param {import('playwright-core').Page} page
 * @param {string} label  palette text, e.g. 'File: New Untitled Text File'
 */
export async function runCommand(page, label, { timeoutMs = 10_000 } = {}) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(`>${label}`);
  const rows = widget.locator('.monaco-list-row');
  const target = rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(label)}$`) }) }).first();
  await target.waitFor({ state: 'visible', timeout: timeoutMs });
  const wantedId = await target.locator('[data-quick-input-id]').getAttribute('data-quick-input-id');
  const focusedId = () =>
    widget.locator('.monaco-list-row.focused [data-quick-input-id]').first().getAttribute('data-quick-input-id').catch(() => null);
  for (let i = 0; i < 50 && (await focusedId()) !== wantedId; i++) await page.keyboard.press('ArrowDown');
  if ((await focusedId()) !== wantedId) throw new Error(`could not select "${label}" (${wantedId}) in the command palette`);
  await page.keyboard.press('Enter');
  // The palette closes, or the command reuses the widget for its own quick pick or input box (then the
  // text no longer starts with '>'): either way the command has started.
  await page
    .waitForFunction(
      () => {
        const box = document.querySelector('.quick-input-widget .quick-input-box input');
        return !box || box.offsetParent === null || !box.value.startsWith('>');
      },
      undefined,
      { timeout: timeoutMs, polling: 50 },
    )
    .catch(() => {});
  return wantedId;
}

/**
 * True when the window is in Restricted Mode (workspace not trusted): VS Code shows a
 * "Restricted Mode" status-bar entry.
 */
export async function isRestrictedMode(page) {
  return page
    .locator('.monaco-workbench .part.statusbar')
    .getByText('Restricted Mode', { exact: false })
    .isVisible()
    .catch(() => false);
}

/**
 * Answer VS Code's startup "Do you trust the authors of the files in this folder?" modal
 * (shown with startCodeServer({ trusted: false, trustPrompt: true })).
 * trust=true clicks "Yes, I trust the authors" and waits until the window has left Restricted Mode;
 * false clicks "No, I don't trust the authors". The decision lives in the browser profile, so a
 * fresh openVSCode() on the same server asks again.
 */
export async function answerTrustPrompt(page, trust, { timeoutMs = 20_000 } = {}) {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  await dialog.getByRole('button', { name: trust ? /Yes, I trust/ : /No, I don't trust/ }).click();
  await dialog.waitFor({ state: 'hidden', timeout: timeoutMs });
  if (!trust) return;
  // The status-bar entry goes away a few seconds later (3 s measured under load).
  const deadline = Date.now() + timeoutMs;
  while (await isRestrictedMode(page)) {
    if (Date.now() > deadline) throw new Error('still in Restricted Mode after trusting the folder');
    await page.waitForTimeout(100);
  }
}
