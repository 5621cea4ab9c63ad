/**
 * One tree row: its elements and an update that touches the DOM only where something changed.
 *
 * DOM contract (public: tests and the e2e suite select on it): the row element has `role="treeitem"`,
 * `data-task-id`, `data-status`, `aria-label` "<role>: <description> — <status>", `aria-level`,
 * `aria-expanded` only when it has children, `aria-selected`; running and queued rows hold a button whose
 * `aria-label` is "Stop <role>: <description>".
 */
import { type ProtocolTask } from '../shared/protocol.js';
import { createElement, createIcon, setAttributeIfChanged, setTextIfChanged } from './dom.js';
import { formatCount, formatTaskElapsed, formatTokens, treeTokens } from './format.js';
import { isStoppable, statusIconClasses, stopAriaLabel, taskAriaLabel } from './status.js';
import { type TreeRow } from './tree-model.js';

export interface RowView {
  element: HTMLDivElement;
  twistie: HTMLSpanElement;
  icon: HTMLSpanElement;
  role: HTMLSpanElement;
  description: HTMLSpanElement;
  elapsed: HTMLSpanElement;
  tokens: HTMLSpanElement;
  stop: HTMLButtonElement | undefined;
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
}

/** Horizontal step per tree level, in pixels (VS Code's default tree indent is 8; rows here need a bit more). */
export const indentPerLevel = 12;

export function createRowView(document: Document): RowView {
  const twistie = createIcon(document, '', 'tree-twistie');
  const icon = createIcon(document, '', 'tree-status');
  const role = createElement(document, 'span', { className: 'tree-role' });
  const description = createElement(document, 'span', { className: 'tree-description' });
  const label = createElement(document, 'span', { className: 'tree-label' }, [role, description]);
  const elapsed = createElement(document, 'span', { className: 'tree-elapsed' });
  const tokens = createElement(document, 'span', { className: 'tree-tokens' });
  const element = createElement(document, 'div', { className: 'tree-row', attributes: { role: 'treeitem' } }, [
    twistie,
    icon,
    label,
    elapsed,
    tokens,
  ]);
  return { element, twistie, icon, role, description, elapsed, tokens, stop: undefined, last: undefined };
}

export function updateRowView(view: RowView, input: RowInput, rowHeight: number): void {
  const last = view.last;
  const { task, row } = input;
  const element = view.element;
  if (last?.index !== input.index) element.style.top = `${input.index * rowHeight}px`;
  if (last?.row.level !== row.level) element.style.paddingLeft = `${(row.level - 1) * indentPerLevel + 4}px`;
  setAttributeIfChanged(element, 'data-task-id', task.id);
  setAttributeIfChanged(element, 'data-status', task.status);
  setAttributeIfChanged(element, 'aria-label', taskAriaLabel(task));
  setAttributeIfChanged(element, 'aria-level', String(row.level));
  setAttributeIfChanged(element, 'aria-setsize', String(row.setSize));
  setAttributeIfChanged(element, 'aria-posinset', String(row.positionInSet));
  setAttributeIfChanged(element, 'aria-expanded', row.hasChildren ? String(row.expanded) : null);
  setAttributeIfChanged(element, 'aria-selected', String(input.selected));
  setAttributeIfChanged(element, 'tabindex', input.tabStop ? '0' : '-1');
  element.classList.toggle('selected', input.selected);

  if (last?.task !== task) {
    view.twistie.className = twistieClasses(row);
    view.icon.className = `codicon ${statusIconClasses[task.status]} tree-status status-${task.status}`;
    setTextIfChanged(view.role, task.role);
    setTextIfChanged(view.description, task.description);
    setTextIfChanged(view.tokens, formatTokens(treeTokens(task)));
    setAttributeIfChanged(
      view.tokens,
      'title',
      `${formatCount(task.treeUsage.inputTokens)} tokens in, ${formatCount(task.treeUsage.outputTokens)} out (with subagents)`,
    );
    updateStopButton(view, task);
  } else if (last.row.hasChildren !== row.hasChildren || last.row.expanded !== row.expanded) {
    view.twistie.className = twistieClasses(row);
  }
  updateRowElapsed(view, task, input.now);
  view.last = input;
}

/** Refreshes only the elapsed-time text (the once-a-second tick for running rows). */
export function updateRowElapsed(view: RowView, task: ProtocolTask, now: number): void {
  setTextIfChanged(view.elapsed, formatTaskElapsed(task, now));
}

function twistieClasses(row: TreeRow): string {
  if (!row.hasChildren) return 'codicon tree-twistie';
  return `codicon tree-twistie ${row.expanded ? 'codicon-chevron-down' : 'codicon-chevron-right'}`;
}

function updateStopButton(view: RowView, task: ProtocolTask): void {
  if (!isStoppable(task.status)) {
    view.stop?.remove();
    view.stop = undefined;
    return;
  }
  if (!view.stop) {
    const document = view.element.ownerDocument;
    view.stop = createElement(document, 'button', { className: 'tree-stop icon-button', attributes: { type: 'button', tabindex: '-1', title: 'Stop' } }, [
      createIcon(document, 'codicon-debug-stop'),
    ]);
    view.element.append(view.stop);
  }
  setAttributeIfChanged(view.stop, 'aria-label', stopAriaLabel(task));
}
