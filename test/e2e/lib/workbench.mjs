// What a user does in the VS Code window, by keyboard and mouse, and where the Agent Team sidebar's
// DOM contract (src/shared/README.md) is found: the view is a webview, i.e. an iframe holding the
// `#active-frame` iframe that holds the extension's page.
import { runCommand } from '../tooling/browser.mjs';

export const delegateLabel = 'Agent Team: Delegate Task…';
export const reviewLabel = 'Agent Team: Review Changes…';

/**
 * The Agent Team sidebar's page (nested iframes of the webview view). The extension has no other
 * webview. (Not `purpose=webviewView` in the address: a view restored after a reload lacks it.)
 */
export function sidebar(page) {
  return page.frameLocator('iframe.webview[src*="extensionId=agent-team.agent-team"]').frameLocator('#active-frame');
}

/**
 * Opens the Agent Team view with a click on its activity bar icon, unless it is already showing (a
 * click on the icon of the showing view would close the side bar), and waits until the webview has
 * rendered: the task tree or the empty state.
 */
export async function openSidebar(page) {
  const title = page.locator('.part.sidebar .composite.title', { hasText: 'Agent Team' });
  const tab = page.locator('.part.activitybar').getByRole('tab', { name: /^Agent Team/ });
  await tab.waitFor();
  // The workbench may restore the view on its own right after startup; if a click raced with that and
  // closed it again, the next round opens it.
  for (let attempt = 1; !(await title.isVisible()); attempt++) {
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    try {
      await title.waitFor({ state: 'visible', timeout: 5000 });
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  const frame = sidebar(page);
  await frame.locator('[role="tree"], .empty-state').filter({ visible: true }).first().waitFor({ timeout: 60_000 });
  return frame;
}

/** Escapes a value for a CSS attribute selector in double quotes. */
export function cssString(value) {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Every task row. */
export function rows(frame) {
  return frame.locator('[role="treeitem"]');
}

/**
 * The row of a task by its role and description (its aria-label is "<role>: <description> — <status>"),
 * optionally only in a given status.
 */
export function taskRow(frame, role, description, status) {
  const label = `${role}: ${description} \u2014 ${status ?? ''}`;
  const statusAttribute = status ? `[data-status="${status}"]` : '';
  return frame.locator(`[role="treeitem"]${statusAttribute}[aria-label^="${cssString(label)}"]`);
}

/** The row of a task by its id, optionally only in a given status. */
export function rowById(frame, taskId, status) {
  return frame.locator(`[role="treeitem"][data-task-id="${cssString(taskId)}"]${status ? `[data-status="${status}"]` : ''}`);
}

/** Reads every rendered row: id, status, level and label. */
export async function readRows(frame) {
  return rows(frame).evaluateAll((elements) =>
    elements
      .map((element) => ({
        id: element.getAttribute('data-task-id'),
        status: element.getAttribute('data-status'),
        level: Number(element.getAttribute('aria-level')),
        label: element.getAttribute('aria-label'),
        top: element.getBoundingClientRect().top,
      }))
      .sort((a, b) => a.top - b.top)
      .map((row) => ({ id: row.id, status: row.status, level: row.level, label: row.label })),
  );
}

/**
 * Clicks a row's Stop button the way a user does: the button shows when the pointer is over the row.
 * Returns the time of the click (after the hover), for measuring how soon the row changes.
 */
export async function clickStop(row) {
  await row.hover();
  const button = row.locator('button[aria-label^="Stop"]');
  await button.waitFor({ state: 'visible' });
  const clickedAt = Date.now();
  await button.click();
  return clickedAt;
}

/** The quick input (palette, quick pick or input box). */
export function quickInput(page) {
  const widget = page.locator('.quick-input-widget');
  return {
    widget,
    input: widget.locator('.quick-input-box input'),
    title: widget.locator('.quick-input-title'),
    rows: widget.locator('.monaco-list-row'),
  };
}

/**
 * Delegate Task… from the command palette: if the role pick appears, picks who does it (Enter keeps the
 * coordinator, the default first item; another role is typed to filter, then chosen), then types the
 * task into the input box and presses Enter.
 */
export async function delegateFromPalette(page, task, { role = 'coordinator' } = {}) {
  const commandId = await runCommand(page, delegateLabel);
  if (commandId !== 'agentTeam.delegate') throw new Error(`the palette ran ${commandId}, not agentTeam.delegate`);
  const quick = quickInput(page);
  const rolePickTitle = 'Delegate Task: who should do it?';
  const inputBoxTitle = role === 'coordinator' ? /^Delegate Task$/ : new RegExp(`^Delegate Task to ${role}$`);
  await quick.title.filter({ hasText: /^Delegate Task/ }).waitFor({ state: 'visible' });
  if ((await quick.title.textContent())?.includes(rolePickTitle)) {
    const roleLabel = new RegExp(`^\\s*${role}$`);
    if (role !== 'coordinator') await page.keyboard.type(role);
    await quick.widget.locator('.monaco-list-row.focused .label-name', { hasText: roleLabel }).waitFor();
    await page.keyboard.press('Enter');
  } else if (role !== 'coordinator') {
    throw new Error(`Delegate Task… showed no role pick, so "${role}" cannot be chosen`);
  }
  await quick.title.filter({ hasText: inputBoxTitle }).waitFor({ state: 'visible' });
  await page.keyboard.type(task);
  await page.keyboard.press('Enter');
  await quick.widget.waitFor({ state: 'hidden' });
}

/**
 * A palette command that asks for one line of text (after an optional quick pick, chosen by typing
 * `pick` and pressing Enter once the first row matches): types `text` into the input box titled `inputTitle`.
 */
export async function runFromPalette(page, label, { pick, inputTitle, text }) {
  await runCommand(page, label);
  const quick = quickInput(page);
  if (pick !== undefined) {
    await quick.rows.first().waitFor({ state: 'visible' });
    await page.keyboard.type(pick);
    await quick.widget.locator('.monaco-list-row.focused .label-name', { hasText: new RegExp(`${pick}$`) }).waitFor();
    await page.keyboard.press('Enter');
  }
  await quick.title.filter({ hasText: inputTitle }).waitFor({ state: 'visible' });
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await quick.widget.waitFor({ state: 'hidden' });
}

/** A notification toast containing `text`. */
export function notification(page, text) {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}
