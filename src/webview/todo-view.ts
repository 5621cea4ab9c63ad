/**
 * The run's plan in the sidebar, under the tree: the todo list of the selected task's run (the newest run
 * when nothing is selected), live as its agent writes it (`TodoWrite`, or a planned run's sub-tasks).
 * Hidden when that run has no list.
 *
 * DOM contract (the e2e journey selects on it): a `section` with `aria-label` "Plan of <run description>",
 * a heading "Plan · <n>/<m> done", and a list whose items carry `data-status` (`pending|in_progress|
 * completed`) and read their text (an item in progress in its active form).
 */
import type { ProtocolTask } from '../shared/protocol.js';
import { type TodoItem, sameTodos, todoProgress } from '../engine/tasks/todo-item.js';
import { createElement, createIcon, setAttributeIfChanged, setTextIfChanged } from './dom.js';
import { l10n } from './l10n.js';

const statusIcons: Record<TodoItem['status'], string> = {
  pending: 'codicon-circle-large-outline',
  in_progress: 'codicon-arrow-circle-right',
  completed: 'codicon-pass',
};
/** Said after each item to screen readers; asked at render time, when the host's string table is in. */
const statusWords = (status: TodoItem['status']): string =>
  status === 'pending' ? l10n.t('to do') : status === 'in_progress' ? l10n.t('in progress') : l10n.t('done');

export class TodoView {
  readonly element: HTMLElement;
  private readonly heading: HTMLHeadingElement;
  private readonly list: HTMLUListElement;
  private shown: readonly TodoItem[] | undefined;

  constructor(private readonly document: Document) {
    this.heading = createElement(document, 'h3', { className: 'detail-heading todo-heading' });
    this.list = createElement(document, 'ul', { className: 'todo-list' });
    // Polite: a screen reader hears the plan change without losing its place.
    this.element = createElement(document, 'section', { className: 'todo-panel', attributes: { 'aria-live': 'polite' } }, [
      this.heading,
      this.list,
    ]);
    this.element.hidden = true;
  }

  /** `run`: the root whose plan to show; undefined (or a run without a list) hides the panel. */
  render(run: ProtocolTask | undefined): void {
    const todos = run?.todos;
    this.element.hidden = !run || !todos || todos.length === 0;
    if (!run || !todos || todos.length === 0) return;
    setAttributeIfChanged(this.element, 'aria-label', l10n.t('Plan of {0}', run.description));
    setTextIfChanged(this.heading, l10n.t('Plan \u00b7 {0}', todoProgress(todos)));
    if (sameTodos(this.shown, todos)) return;
    this.shown = todos;
    this.list.replaceChildren(...todos.map((todo) => this.item(todo)));
  }

  private item(todo: TodoItem): HTMLLIElement {
    const text = todo.status === 'in_progress' ? todo.activeForm : todo.content;
    return createElement(
      this.document,
      'li',
      {
        className: `todo-item todo-${todo.status}`,
        attributes: { 'data-status': todo.status, 'aria-label': `${text} \u2014 ${statusWords(todo.status)}` },
      },
      [
        createIcon(this.document, statusIcons[todo.status], 'todo-icon'),
        createElement(this.document, 'span', { className: 'todo-text', text }),
      ],
    );
  }
}

/** The run whose plan the sidebar shows: the selected task's, else the newest (the tree's first row). */
export function planRun(
  tasks: ReadonlyMap<string, ProtocolTask>,
  selectedId: string | null,
  firstRowId: string | undefined,
): ProtocolTask | undefined {
  const anchor =
    (selectedId !== null ? tasks.get(selectedId) : undefined) ?? (firstRowId !== undefined ? tasks.get(firstRowId) : undefined);
  return anchor ? tasks.get(anchor.rootId) : undefined;
}
