/**
 * Streamed words reach the DOM when their message arrives, not at the next animation frame. A browser
 * paints at its next frame whatever the DOM then holds, so for the words alone this changes no frame;
 * what it saves is the full render a frame costs (tree, detail pane, saved state) for every chunk of a
 * streaming task: a chunk is one append to one text node. Writes are coalesced to one per turn of the
 * event loop (a microtask), however many text messages that turn brought. Anything structural still
 * renders in `requestAnimationFrame`, as before.
 */
export class StreamedWords {
  private pending = false;

  /**
   * `write` shows the streamed text now and says whether it could (false: the pane does not show that
   * transcript as it is, e.g. its entries are not drawn yet); `render` asks for a frame's render instead.
   */
  constructor(
    private readonly write: () => boolean,
    private readonly render: () => void,
  ) {}

  /** The store took a chunk of streamed text: show it at the end of this turn. */
  note(): void {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => this.flush());
  }

  /** Shows what is waiting now (a `flush` before the microtask leaves it nothing to do). */
  flush(): void {
    if (!this.pending) return;
    this.pending = false;
    if (!this.write()) this.render();
  }
}
