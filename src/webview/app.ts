/**
 * The sidebar: wires the store, the views and the host connection together. Constructible from a plain
 * DOM root, a `WebviewApi` and a frame scheduler, so tests (jsdom) and benchmarks (headless Chromium)
 * mount exactly what VS Code shows.
 */
import type { Clock } from '../engine/clock.js';
import { parseHostMessage, prepareHostMessageParsing, type WebviewApi, type WebviewMessage } from '../shared/protocol.js';
import { DetailView } from './detail-view.js';
import { StatusAnnouncer } from './announcer.js';
import { createElement, setHidden } from './dom.js';
import { EmptyStateView, restrictedMessage } from './empty-state.js';
import { MarkdownRenderer } from './markdown.js';
import { StreamedWords } from './streamed-words.js';
import { animationFrameScheduler, browserClock, type FrameScheduler, RenderCoalescer } from './scheduler.js';
import { SidebarStore, type StoreEffect } from './store.js';
import { type FlatTree, flattenTasks } from './tree-model.js';
import { setTreeIndent } from './row.js';
import { TreeView, type TreeViewOptions } from './tree-view.js';
import { TodoView, planRun } from './todo-view.js';
import { readUiState, type UiState } from './ui-state.js';
import { l10n } from './l10n.js';

export interface SidebarOptions {
  /** The element to render into; its children are replaced. */
  root: HTMLElement;
  /** Posting to the host and keeping UI state. */
  api: WebviewApi;
  /** When renders happen. Default: `requestAnimationFrame` of the root's window. */
  scheduler?: FrameScheduler;
  /** For elapsed times and their once-a-second tick. Default: the browser's clock. */
  clock?: Clock;
  /** Where dropped messages and errors go. Default: `console.warn` plus a `log` message to the host. */
  log?: (message: string) => void;
  /** Row height, overscan and fallback viewport height; see `TreeViewOptions` for the defaults. */
  tree?: TreeViewOptions;
  /** How often running rows' elapsed times refresh, in ms. Default 1000. */
  tickIntervalMs?: number;
}

export interface Sidebar {
  /** Hands the sidebar one message from the host (`window` `message` event data); validated here. */
  receive(data: unknown): void;
  /** Shows streamed words and renders now if either waits, without waiting for the end of the turn or the next frame. */
  flush(): void;
  /** Stops the timer and removes the sidebar's elements. */
  dispose(): void;
  /** The state behind the view (read-only use: tests and benchmarks). */
  readonly store: SidebarStore;
}

/** Mounts the sidebar and posts `ready`; attach the host message listener in the same task. */
export function mountSidebar(options: SidebarOptions): Sidebar {
  return new SidebarApp(options);
}

/** While a snapshot arrives in parts, one render per this many parts (see `receive`). */
const partsPerRender = 20;

class SidebarApp implements Sidebar {
  readonly store: SidebarStore;
  private readonly api: WebviewApi;
  private readonly clock: Clock;
  private readonly log: (message: string) => void;
  private readonly tickIntervalMs: number;
  private readonly coalescer: RenderCoalescer;
  private readonly streamedWords: StreamedWords;
  /** Parts of the snapshot under way received since the tree was last invalidated for one. */
  private partsSinceRender = 0;
  private readonly container: HTMLElement;
  private readonly loading: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly emptyState: EmptyStateView;
  private readonly tree: TreeView;
  private readonly detail: DetailView;
  /** Task state changes, said to screen readers. */
  private readonly announcer: StatusAnnouncer;
  private readonly todoView: TodoView;
  private flat: FlatTree = { rows: [], indexById: new Map() };
  private pendingScroll: { top: number } | { taskId: string } | undefined;
  private restoredScrollTop: number | undefined;
  private savedUiState = { selectedTaskId: null as string | null, collapsedVersion: -1, scrollTop: -1 };
  private cancelTick: (() => void) | undefined;
  private bannerShown = false;
  private disposed = false;
  private resizeObserver: ResizeObserver | undefined;

  constructor(options: SidebarOptions) {
    const document = options.root.ownerDocument;
    const window = document.defaultView!;
    this.api = options.api;
    this.clock = options.clock ?? browserClock;
    this.tickIntervalMs = options.tickIntervalMs ?? 1000;
    this.log = options.log ?? ((message) => this.defaultLog(message));
    this.store = new SidebarStore(() => this.clock.now());
    this.coalescer = new RenderCoalescer(options.scheduler ?? animationFrameScheduler(window), () => this.render());
    this.streamedWords = new StreamedWords(
      () => !this.disposed && this.store.transcript !== undefined && this.detail.streamText(this.store.transcript),
      () => this.coalescer.invalidate(),
    );

    const saved = readUiState(this.api.getState());
    this.store.restore(saved);
    this.restoredScrollTop = saved.scrollTop;

    const post = (message: WebviewMessage) => this.api.postMessage(message);
    this.loading = createElement(document, 'div', { className: 'loading', text: l10n.t('Loading…') });
    this.banner = createElement(document, 'div', { className: 'banner' });
    this.banner.hidden = true;
    this.emptyState = new EmptyStateView(document, post);
    this.emptyState.element.hidden = true;
    this.tree = new TreeView(
      document,
      {
        select: (taskId) => this.select(taskId),
        focusChanged: (taskId) => {
          this.store.focus(taskId);
          this.coalescer.invalidate();
        },
        moveFocus: (taskId) => {
          this.store.focus(taskId);
          this.pendingScroll = { taskId };
          this.coalescer.flushNow();
          this.tree.focusRow(taskId);
        },
        setExpanded: (taskId, expanded) => {
          this.store.setExpanded(taskId, expanded);
          this.coalescer.flushNow();
        },
        stop: (taskId) => post({ type: 'stop-task', taskId }),
        resume: (taskId) => post({ type: 'resume-run', taskId }),
      },
      options.tree,
    );
    this.tree.element.hidden = true;
    this.tree.element.addEventListener('scroll', () => this.coalescer.invalidate());
    const ResizeObserverClass = (window as Window & { ResizeObserver?: typeof ResizeObserver }).ResizeObserver;
    if (ResizeObserverClass) {
      this.resizeObserver = new ResizeObserverClass(() => this.coalescer.invalidate());
      this.resizeObserver.observe(this.tree.element);
    }
    this.detail = new DetailView(document, new MarkdownRenderer(window), post, () => this.closeDetail());
    this.detail.element.hidden = true;
    // Escape closes the detail, as it closes VS Code's own peek views (a composer keeps its own Escape).
    this.detail.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      this.closeDetail();
    });

    this.announcer = new StatusAnnouncer(document);
    this.todoView = new TodoView(document);
    this.container = createElement(document, 'div', { className: 'sidebar' }, [
      this.announcer.element,
      this.loading,
      this.banner,
      this.emptyState.element,
      this.tree.element,
      this.todoView.element,
      this.detail.element,
    ]);
    options.root.replaceChildren(this.container);
    post({ type: 'ready' });
    // While the host makes the first snapshot, not after it arrives.
    prepareHostMessageParsing();
  }

  receive(data: unknown): void {
    if (this.disposed) return;
    const parsed = parseHostMessage(data);
    if (!parsed.message) {
      this.log(parsed.reason);
      return;
    }
    if (parsed.message.type === 'task-upsert' && this.store.loaded)
      this.announcer.note(parsed.message.tasks, (taskId) => this.store.tasks.get(taskId));
    this.handle(this.store.apply(parsed.message));
    // Streamed words go to the DOM at once (streamed-words.ts); only a pane not ready for them asks for a render.
    if (parsed.message.type === 'text-delta') return this.streamedWords.note();
    // A long history's snapshot comes in hundreds of parts, one per turn of the host's loop, and each render
    // lays the whole tree out again (30 ms at 100,000 tasks): the first part paints at once, then every
    // `partsPerRender`th, then the last. What a part adds is below the rows already shown (unless a saved
    // scroll position waits for its rows: then each part may be the one that lets it be restored).
    const laterPart = parsed.message.type === 'snapshot-part' && !parsed.message.complete && this.restoredScrollTop === undefined;
    if (laterPart && ++this.partsSinceRender % partsPerRender !== 0) return;
    this.partsSinceRender = 0;
    this.coalescer.invalidate();
  }

  flush(): void {
    this.streamedWords.flush();
    if (this.coalescer.isPending) this.coalescer.flushNow();
  }

  dispose(): void {
    this.disposed = true;
    this.resizeObserver?.disconnect();
    this.cancelTick?.();
    this.cancelTick = undefined;
    this.container.remove();
  }

  private handle(effects: StoreEffect[]): void {
    for (const effect of effects) {
      if (effect.kind === 'request-transcript') this.api.postMessage({ type: 'select-task', taskId: effect.taskId });
      else this.pendingScroll = { taskId: effect.taskId };
    }
  }

  private select(taskId: string | null): void {
    if (this.store.select(taskId)) this.api.postMessage({ type: 'select-task', taskId: this.store.selectedTaskId });
    if (taskId !== null) this.store.focus(taskId);
    this.coalescer.invalidate();
  }

  /** Deselects and gives keyboard focus back to the row the pane belonged to. */
  private closeDetail(): void {
    const previous = this.store.selectedTaskId;
    this.select(null);
    this.coalescer.flushNow();
    if (previous !== null) this.tree.focusRow(previous);
  }

  private render(): void {
    if (this.disposed) return;
    const store = this.store;
    if (store.dirty.structure) this.flat = flattenTasks(store.tasks, store.collapsed);
    store.dirty.structure = false;
    store.dirty.content = false;
    const now = store.hostNow();
    const hasTasks = store.tasks.size > 0;

    setHidden(this.loading, store.loaded);
    setHidden(this.emptyState.element, !store.loaded || hasTasks);
    if (store.loaded && !hasTasks && store.setup) this.emptyState.render(store.setup);
    this.renderBanner(hasTasks && store.setup?.restricted === true);

    if (store.setup?.treeIndent !== undefined && setTreeIndent(store.setup.treeIndent)) this.tree.relayout();
    setHidden(this.tree.element, !hasTasks);
    if (hasTasks) {
      let scroll = this.pendingScroll;
      // A saved scroll position is restored once the rows below it are there: at once when the first
      // part of the snapshot reaches that far, else when its last part has come.
      if (this.restoredScrollTop !== undefined && (store.complete || this.tree.fits(this.restoredScrollTop, this.flat.rows.length))) {
        scroll ??= { top: this.restoredScrollTop };
        this.restoredScrollTop = undefined;
      }
      this.pendingScroll = undefined;
      this.tree.render({
        tree: this.flat,
        tasks: store.tasks,
        selectedId: store.selectedTaskId,
        focusedId: store.focusedTaskId,
        now,
        scroll,
        checks: store.checks,
      });
    }

    this.todoView.render(hasTasks ? planRun(store.tasks, store.selectedTaskId, this.flat.rows[0]?.id) : undefined);
    const selected = store.selectedTaskId !== null ? store.tasks.get(store.selectedTaskId) : undefined;
    const transcript = store.transcript;
    const showDetail = selected !== undefined && transcript !== undefined;
    setHidden(this.detail.element, !showDetail);
    if (this.container.classList.contains('has-detail') !== showDetail) this.container.classList.toggle('has-detail', showDetail);
    if (showDetail) {
      this.detail.render({
        task: selected,
        detail: store.detail,
        changes: store.changes.get(selected.id),
        transcript,
        now,
        messageSent: store.messageSent,
        checks: store.checks.get(selected.id),
      });
    }
    this.saveUiState();
    this.updateTicker();
  }

  private renderBanner(show: boolean): void {
    if (show === this.bannerShown) return;
    this.bannerShown = show;
    this.banner.hidden = !show;
    const document = this.banner.ownerDocument;
    this.banner.replaceChildren(...(show ? [restrictedMessage(document, (message) => this.api.postMessage(message))] : []));
  }

  private saveUiState(): void {
    const store = this.store;
    // Before the first snapshot the restored state is still pending; saving now would overwrite it.
    if (!store.loaded) return;
    // Until a saved position is restored, it is still the one to keep.
    const scrollTop = this.restoredScrollTop ?? this.tree.scrollTop;
    const saved = this.savedUiState;
    if (saved.selectedTaskId === store.selectedTaskId && saved.collapsedVersion === store.collapsedVersion && saved.scrollTop === scrollTop)
      return;
    this.savedUiState = { selectedTaskId: store.selectedTaskId, collapsedVersion: store.collapsedVersion, scrollTop };
    const state: UiState = { selectedTaskId: store.selectedTaskId, collapsedIds: [...store.collapsed], scrollTop };
    this.api.setState(state);
  }

  /** One timer at a time, only while some task runs. */
  private updateTicker(): void {
    const running = this.store.hasRunningTasks();
    if (running && !this.cancelTick) {
      this.cancelTick = this.clock.setTimer(() => this.tick(), this.tickIntervalMs);
    } else if (!running && this.cancelTick) {
      this.cancelTick();
      this.cancelTick = undefined;
    }
  }

  private tick(): void {
    this.cancelTick = undefined;
    const now = this.store.hostNow();
    this.tree.tick(this.store.tasks, now);
    this.detail.tick(now);
    this.updateTicker();
  }

  private defaultLog(message: string): void {
    console.warn(`[agent-team sidebar] ${message}`);
    this.api.postMessage({ type: 'log', level: 'warn', message: message.slice(0, 4000) });
  }
}
