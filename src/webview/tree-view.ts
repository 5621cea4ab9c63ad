/**
 * The virtualized task tree: only the rows in the viewport (plus a little overscan) are in the DOM, each
 * absolutely positioned inside a sizer that gives the scroll height of all rows. Row elements are keyed
 * by task id and reused, so a row that stays visible keeps its element (and its keyboard focus).
 */
import { type ProtocolTask, type RunChecks } from '../shared/protocol.js';
import { createElement } from './dom.js';
import { treeKeyAction } from './keyboard.js';
import { createRowView, isTwistieClick, type RowView, updateRowElapsed, updateRowView } from './row.js';
import { type FlatTree, visibleRange } from './tree-model.js';
import { isStoppable } from './status.js';
import { l10n } from './l10n.js';

export interface TreeViewOptions {
  /** Row height in pixels; must match `.tree-row` in media/sidebar.css. Default 22 (VS Code's lists). */
  rowHeight?: number;
  /** Rows rendered beyond each edge of the viewport. Default 5. */
  overscan?: number;
  /** Used when the viewport reports no height (jsdom has no layout; a hidden view). Default 600. */
  defaultViewportHeight?: number;
}

export interface TreeViewActions {
  select(taskId: string): void;
  /** A row received DOM focus (click, Tab). */
  focusChanged(taskId: string): void;
  /** The keyboard asks to move focus to a row, which may not be rendered yet. */
  moveFocus(taskId: string): void;
  setExpanded(taskId: string, expanded: boolean): void;
  stop(taskId: string): void;
  /** Resume an interrupted run (`taskId`: its root). */
  resume(taskId: string): void;
}

export interface TreeRenderInput {
  tree: FlatTree;
  tasks: ReadonlyMap<string, ProtocolTask>;
  selectedId: string | null;
  focusedId: string | null;
  /** On the host's clock. */
  now: number;
  /** Scroll before choosing rows: to an offset (restoring state) or just enough to show a task's row. */
  scroll?: { top: number } | { taskId: string };
  /** Runs' checks by run id, for their rows' badges. */
  checks?: ReadonlyMap<string, RunChecks>;
}

export class TreeView {
  /** The scrolling element; `role="tree"`. */
  readonly element: HTMLDivElement;
  private readonly sizer: HTMLDivElement;
  private readonly rendered = new Map<string, RowView>();
  private readonly spare: RowView[] = [];
  private readonly rowHeight: number;
  private readonly overscan: number;
  private readonly defaultViewportHeight: number;
  private lastInput: TreeRenderInput | undefined;
  /** `scrollTop` as of the last render; reading it again after DOM writes would force a layout. */
  private renderedScrollTop = 0;

  constructor(
    private readonly document: Document,
    private readonly actions: TreeViewActions,
    options: TreeViewOptions = {},
  ) {
    this.rowHeight = options.rowHeight ?? 22;
    this.overscan = options.overscan ?? 5;
    this.defaultViewportHeight = options.defaultViewportHeight ?? 600;
    this.sizer = createElement(document, 'div', { className: 'tree-sizer', attributes: { 'aria-hidden': 'true' } });
    this.element = createElement(
      document,
      'div',
      {
        className: 'tree',
        attributes: { role: 'tree', 'aria-label': l10n.t('Agent tasks') },
      },
      [this.sizer],
    );
    this.element.addEventListener('click', (event) => this.onClick(event));
    this.element.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.element.addEventListener('focusin', (event) => {
      const id = rowIdOf(event.target);
      if (id !== undefined) this.actions.focusChanged(id);
    });
  }

  get viewportHeight(): number {
    return this.element.clientHeight || this.defaultViewportHeight;
  }

  /** Whether `rowCount` rows reach below a viewport scrolled to `top`, so scrolling there shows rows. */
  fits(top: number, rowCount: number): boolean {
    return rowCount * this.rowHeight >= top + this.viewportHeight;
  }

  /** Rows per page, for PageUp/PageDown. */
  get pageSize(): number {
    return Math.max(1, Math.floor(this.viewportHeight / this.rowHeight));
  }

  /** Every rendered row is laid out again at the next render (the indent changed). */
  relayout(): void {
    for (const view of this.rendered.values()) view.last = undefined;
  }

  render(input: TreeRenderInput): void {
    this.lastInput = input;
    const { rows, indexById } = input.tree;
    // Layout reads come before any write of this frame, so they never force a synchronous layout.
    const height = `${rows.length * this.rowHeight}px`;
    if (this.sizer.style.height !== height) this.sizer.style.height = height;
    if (input.scroll && 'top' in input.scroll) this.element.scrollTop = input.scroll.top;
    if (input.scroll && 'taskId' in input.scroll) {
      const index = indexById.get(input.scroll.taskId);
      if (index !== undefined) this.scrollToIndex(index);
    }
    this.renderedScrollTop = this.element.scrollTop;
    const range = visibleRange(this.renderedScrollTop, this.viewportHeight, this.rowHeight, rows.length, this.overscan);
    const tabStopId = this.tabStopId(input);
    const wanted: number[] = [];
    for (let index = range.start; index < range.end; index++) wanted.push(index);
    // The tab stop stays in the DOM even when scrolled away, so Tab always reaches the tree and a
    // focused row keeps focus while the user scrolls with the mouse.
    const tabStopIndex = tabStopId !== null ? indexById.get(tabStopId) : undefined;
    if (tabStopIndex !== undefined && (tabStopIndex < range.start || tabStopIndex >= range.end)) wanted.push(tabStopIndex);

    const keep = new Set(wanted.map((index) => rows[index].id));
    for (const [id, view] of this.rendered) {
      if (keep.has(id)) continue;
      view.element.remove();
      view.last = undefined;
      this.rendered.delete(id);
      this.spare.push(view);
    }
    for (const index of wanted) {
      const row = rows[index];
      const task = input.tasks.get(row.id);
      if (!task) continue;
      let view = this.rendered.get(row.id);
      if (!view) {
        view = this.spare.pop() ?? createRowView(this.document);
        this.rendered.set(row.id, view);
        this.element.append(view.element);
      }
      updateRowView(
        view,
        {
          task,
          row,
          index,
          selected: row.id === input.selectedId,
          tabStop: row.id === tabStopId,
          now: input.now,
          checks: input.checks?.get(row.id),
        },
        this.rowHeight,
      );
    }
  }

  /** Updates the elapsed time of the rendered running rows only (the once-a-second tick). */
  tick(tasks: ReadonlyMap<string, ProtocolTask>, now: number): void {
    for (const [id, view] of this.rendered) {
      const task = tasks.get(id);
      if (task?.status === 'running' || task?.status === 'waiting') updateRowElapsed(view, task, now);
    }
  }

  /** Scrolls the least distance that shows the row at `index` whole. */
  scrollToIndex(index: number): void {
    const top = index * this.rowHeight;
    const bottom = top + this.rowHeight;
    const height = this.viewportHeight;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (bottom > this.element.scrollTop + height) this.element.scrollTop = bottom - height;
  }

  /** Moves keyboard focus to a rendered row (call after `render`). */
  focusRow(taskId: string): void {
    this.rendered.get(taskId)?.element.focus({ preventScroll: true });
  }

  /** The scroll offset the last render used (cheap: no layout). */
  get scrollTop(): number {
    return this.renderedScrollTop;
  }

  /** The row that takes Tab focus: the focused one, else the selected one, else the first. */
  private tabStopId(input: TreeRenderInput): string | null {
    const { indexById, rows } = input.tree;
    if (input.focusedId !== null && indexById.has(input.focusedId)) return input.focusedId;
    if (input.selectedId !== null && indexById.has(input.selectedId)) return input.selectedId;
    return rows[0]?.id ?? null;
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as Element | null;
    const id = rowIdOf(target);
    if (id === undefined) return;
    if (target?.closest('.tree-stop')) {
      event.stopPropagation();
      this.actions.stop(id);
      return;
    }
    if (target?.closest('.tree-resume')) {
      event.stopPropagation();
      this.actions.resume(id);
      return;
    }
    const row = this.lastInput?.tree.rows[this.lastInput.tree.indexById.get(id) ?? -1];
    // The twistie is the row's own `::before`: a click on it targets the row itself.
    if (row?.hasChildren && target?.getAttribute('role') === 'treeitem' && isTwistieClick(target, row.level, event.clientX)) {
      this.actions.setExpanded(id, !row.expanded);
      return;
    }
    this.actions.select(id);
  }

  private onKeyDown(event: KeyboardEvent): void {
    const input = this.lastInput;
    if (!input || event.altKey || event.ctrlKey || event.metaKey) return;
    // Keys pressed on a row's own button belong to the button.
    if ((event.target as Element | null)?.closest('button')) return;
    const focusedId = rowIdOf(event.target) ?? input.focusedId;
    const action = treeKeyAction(event.key, input.tree.rows, input.tree.indexById, focusedId, this.pageSize);
    if (!action) return;
    event.preventDefault();
    switch (action.kind) {
      case 'focus':
        this.actions.moveFocus(action.taskId);
        break;
      case 'expand':
        this.actions.setExpanded(action.taskId, true);
        break;
      case 'collapse':
        this.actions.setExpanded(action.taskId, false);
        break;
      case 'select':
        this.actions.select(action.taskId);
        break;
      case 'stop': {
        const status = input.tasks.get(action.taskId)?.status;
        if (status !== undefined && isStoppable(status)) this.actions.stop(action.taskId);
        break;
      }
    }
  }
}

function rowIdOf(target: EventTarget | null): string | undefined {
  const row = (target as Element | null)?.closest?.('[role="treeitem"]');
  return row?.getAttribute('data-task-id') ?? undefined;
}
