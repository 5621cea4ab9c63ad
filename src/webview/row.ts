/**
 * One tree row: its elements and an update that touches the DOM only where something changed.
 *
 * DOM contract (public: tests and the e2e suite select on it): the row element has `role="treeitem"`,
 * `data-task-id`, `data-status`, `aria-label` "<role>: <description> — <status>" (`waiting, queued for
 * you` and `data-queued-for-user="true"` while its question waits behind another task's), `aria-level`,
 * `aria-expanded` only when it has children, `aria-selected`; running and queued rows hold a button whose
 * `aria-label` is "Stop <role>: <description>"; an interrupted run's root row (`data-status="interrupted"`)
 * holds one whose `aria-label` is "Resume run <description>".
 *
 * At most five elements a row, as the DOM of a long history is rows × elements: the row, its status icon
 * (a codicon), its label (the description as text, the role before it from `data-role` in CSS), its
 * figures (elapsed time and tokens as one text; past half its context window, a thin bar under them from
 * `data-context`, context-meter.ts) and, while it can be stopped, the Stop button, or, while
 * it can be resumed, the Resume button (each itself the codicon; never both). The twistie is the row's `::before`, drawn from `aria-expanded` (media/sidebar.css); a click
 * on it is found by position (`isTwistieClick`).
 */
import { type ProtocolTask, type RunChecks } from '../shared/protocol.js';
import { checksAriaSuffix, updateChecksBadge } from './checks-view.js';
import { createElement, setAttributeIfChanged, setTextIfChanged } from './dom.js';
import { formatCost } from '../engine/model/cost-schema.js';
import { formatCount, formatTaskElapsed, formatTokens, treeTokens } from './format.js';
import { isResumable, isStoppable, resumeAriaLabel, statusIconClasses, statusText, stopAriaLabel, taskAriaLabel } from './status.js';
import { type TreeRow } from './tree-model.js';
import { l10n } from './l10n.js';
import { contextText, updateContextBar } from './context-meter.js';

export interface RowView {
  element: HTMLDivElement;
  icon: HTMLSpanElement;
  label: HTMLSpanElement;
  figures: HTMLSpanElement;
  stop: HTMLButtonElement | undefined;
  resume: HTMLButtonElement | undefined;
  /** What was last rendered, to skip unchanged rows. */
  last: RowInput | undefined;
}

export interface RowInput {
  task: ProtocolTask;
  row: TreeRow;
  index: number;
  selected: boolean;
  /** The one row with tabindex 0 (roving tabindex). */
  tabStop: boolean;
  now: number;
  /** The run's checks, on a run's row (checks-view.ts draws the badge). */
  checks?: RunChecks;
}

/** Horizontal step per tree level, in pixels: VS Code's `workbench.tree.indent` (default 8), as the host says. */
let indentPerLevel = 8;

/** The indent in use, in pixels. */
export function treeIndent(): number {
  return indentPerLevel;
}

/** Sets the indent; true when it changed (the rows must be laid out again). */
export function setTreeIndent(pixels: number): boolean {
  if (pixels === indentPerLevel) return false;
  indentPerLevel = pixels;
  return true;
}
/** The row's left padding at level 1; the twistie starts there. */
const rowStartPadding = 4;
/** The twistie's width; keep equal to `.tree-row::before` in media/sidebar.css. */
const twistieWidth = 16;
/** Between the elapsed time and the tokens in the figures text: an en space, which HTML does not collapse. */
export const figuresSeparator = '\u2002';

export function createRowView(document: Document): RowView {
  const icon = createElement(document, 'span', { className: 'codicon tree-status', attributes: { 'aria-hidden': 'true' } });
  const label = createElement(document, 'span', { className: 'tree-label' });
  const figures = createElement(document, 'span', { className: 'tree-figures' });
  const element = createElement(document, 'div', { className: 'tree-row', attributes: { role: 'treeitem' } }, [icon, label, figures]);
  return { element, icon, label, figures, stop: undefined, resume: undefined, last: undefined };
}

export function updateRowView(view: RowView, input: RowInput, rowHeight: number): void {
  const last = view.last;
  const { task, row } = input;
  const element = view.element;
  if (last?.index !== input.index) element.style.top = `${input.index * rowHeight}px`;
  if (last?.row.level !== row.level) element.style.paddingLeft = `${rowPadding(row.level)}px`;
  setAttributeIfChanged(element, 'data-task-id', task.id);
  setAttributeIfChanged(element, 'data-status', task.status);
  // A question waiting behind another task's: media/sidebar.css writes "queued for you" after the label.
  setAttributeIfChanged(element, 'data-queued-for-user', task.queuedForUser === true && task.status === 'waiting' ? 'true' : null);
  setAttributeIfChanged(element, 'aria-label', taskAriaLabel(task) + checksAriaSuffix(input.checks));
  setAttributeIfChanged(element, 'aria-level', String(row.level));
  setAttributeIfChanged(element, 'aria-setsize', String(row.setSize));
  setAttributeIfChanged(element, 'aria-posinset', String(row.positionInSet));
  setAttributeIfChanged(element, 'aria-expanded', row.hasChildren ? String(row.expanded) : null);
  setAttributeIfChanged(element, 'aria-selected', String(input.selected));
  setAttributeIfChanged(element, 'tabindex', input.tabStop ? '0' : '-1');
  if (last?.selected !== input.selected) element.classList.toggle('selected', input.selected);

  if (last?.task !== task) {
    const iconClasses = `codicon ${statusIconClasses[task.status]} tree-status status-${task.status}`;
    if (view.icon.className !== iconClasses) view.icon.className = iconClasses;
    setAttributeIfChanged(view.label, 'data-role', task.role);
    setTextIfChanged(view.label, task.description);
    const budget = task.budgetTokens === undefined ? '' : ` of a budget of ${formatCount(task.budgetTokens)}`;
    setAttributeIfChanged(
      view.figures,
      'title',
      `${formatCount(task.treeUsage.inputTokens)} tokens in, ${formatCount(task.treeUsage.outputTokens)} out (with subagents)${budget}`,
    );
    setAttributeIfChanged(element, 'title', rowTooltip(task, input.now));
    // What VS Code hands the row's context menu commands (the webview/context menu in package.json).
    setAttributeIfChanged(
      element,
      'data-vscode-context',
      JSON.stringify({
        webviewSection: 'task',
        taskId: task.id,
        taskStatus: task.status,
        isRun: task.parentId === null,
        preventDefaultContextMenuItems: true,
      }),
    );
    updateContextBar(view.figures, task);
    updateStopButton(view, task);
    updateResumeButton(view, task);
  }
  if (last?.checks !== input.checks) updateChecksBadge(view.figures, input.checks);
  updateRowElapsed(view, task, input.now);
  view.last = input;
}

/** Refreshes the figures (the once-a-second tick for running rows changes the elapsed time). */
export function updateRowElapsed(view: RowView, task: ProtocolTask, now: number): void {
  setTextIfChanged(view.figures, rowFigures(task, now));
}

/**
 * `42s 12.3k` (elapsed, an en space, tokens); tokens alone for a task that never started. A tree with a
 * budget shows its spend against it (`4.1k/5k`), and once the budget stopped it, says so.
 */
export function rowFigures(task: ProtocolTask, now: number): string {
  const elapsed = formatTaskElapsed(task, now);
  let tokens = formatTokens(treeTokens(task));
  if (task.budgetTokens !== undefined) tokens += `/${formatTokens(task.budgetTokens)}`;
  tokens += ' tokens';
  if (task.stopReason?.kind === 'budget') tokens += `${figuresSeparator}budget spent`;
  return elapsed === '' ? tokens : `${elapsed}${figuresSeparator}${tokens}`;
}

/** The row's tooltip: who, on what, how it stands, what it spent and for how long. */
export function rowTooltip(task: ProtocolTask, now: number): string {
  const elapsed = formatTaskElapsed(task, now);
  const spent = treeTokens(task);
  return [
    `${task.role}: ${task.description}`,
    task.background && task.parentId !== null
      ? l10n.t('Status: {0} (background)', statusText(task))
      : l10n.t('Status: {0}', statusText(task)),
    ...(task.model ? [l10n.t('Model: {0}', task.model)] : []),
    task.budgetTokens !== undefined
      ? l10n.t('Tokens: {0} of {1} (with subagents)', formatCount(spent), formatCount(task.budgetTokens))
      : l10n.t('Tokens: {0} (with subagents)', formatCount(spent)),
    ...(task.treeCost && spent > 0
      ? [
          task.budgetUsd !== undefined
            ? l10n.t('Cost: {0} of ${1} (with subagents)', formatCost(task.treeCost), task.budgetUsd)
            : l10n.t('Cost: {0} (with subagents)', formatCost(task.treeCost)),
        ]
      : []),
    ...(elapsed ? [l10n.t('Elapsed: {0}', elapsed)] : []),
    ...(task.context ? [l10n.t('Context: {0}', contextText(task) ?? '')] : []),
  ].join('\n');
}

/**
 * Whether a click at `clientX` on a row at `level` hit its twistie (the row's `::before`, which events
 * see as the row itself), with two pixels of slack on each side.
 */
export function isTwistieClick(rowElement: Element, level: number, clientX: number): boolean {
  const x = clientX - rowElement.getBoundingClientRect().left;
  const start = rowPadding(level);
  return x >= start - 2 && x < start + twistieWidth + 2;
}

function rowPadding(level: number): number {
  return (level - 1) * indentPerLevel + rowStartPadding;
}

/** The action button a row shows at its end, where it has one: Stop on a running row, Resume on an interrupted run's root. */
interface RowButton {
  slot: 'stop' | 'resume';
  shown: boolean;
  className: string;
  title: string;
  label: string;
}

function updateStopButton(view: RowView, task: ProtocolTask): void {
  const stoppable = isStoppable(task.status);
  // The key that stops it from the row (keyboard.ts), told to screen readers as VS Code's own lists do.
  setAttributeIfChanged(view.element, 'aria-keyshortcuts', stoppable ? 'Delete' : null);
  updateRowButton(view, {
    slot: 'stop',
    shown: stoppable,
    className: 'tree-stop icon-button codicon codicon-debug-stop',
    title: l10n.t('Stop (Delete)'),
    label: stopAriaLabel(task),
  });
}

function updateResumeButton(view: RowView, task: ProtocolTask): void {
  updateRowButton(view, {
    slot: 'resume',
    shown: isResumable(task),
    className: 'tree-resume icon-button codicon codicon-debug-continue',
    title: l10n.t('Resume'),
    label: resumeAriaLabel(task),
  });
}

function updateRowButton(view: RowView, button: RowButton): void {
  if (!button.shown) {
    view[button.slot]?.remove();
    view[button.slot] = undefined;
    return;
  }
  let element = view[button.slot];
  if (!element) {
    // Out of the Tab order: the row is the one tab stop; the keyboard stops a row with Delete on it
    // (keyboard.ts), and reaches Resume through the detail pane (Enter) or the row's context menu.
    element = createElement(view.element.ownerDocument, 'button', {
      className: button.className,
      attributes: { type: 'button', tabindex: '-1', title: button.title },
    });
    view[button.slot] = element;
    view.element.append(element);
  }
  setAttributeIfChanged(element, 'aria-label', button.label);
}
