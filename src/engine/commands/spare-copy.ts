/**
 * One overlay copy made ahead of need (B9): a task granted `Bash` is a model turn away from its first
 * command, time enough to start the copy's namespace, build its mask and mount its view, so that the
 * command finds them done. The spare is an idle copy like any other: it is checked before each command
 * (the mask against the live workspace, overlay-mask.ts) and its view shows the workspace as it is then.
 * At most one is kept; taking it lets the next warm-up make another. Only an overlay is made ahead: a
 * git-made copy costs seconds of CPU, not to be spent on a command that may never come.
 */
import type { OverlayCopy } from './overlay/overlay-copy.js';

export class SpareCopy {
  /** The spare, made or being made; undefined once taken (or never asked for). */
  private made: Promise<OverlayCopy | undefined> | undefined;
  private refused = false;

  /** `make`: an overlay copy, or undefined where none can be made (it may also reject: nothing is reported). */
  constructor(private readonly make: () => Promise<OverlayCopy | undefined>) {}

  /** True while a spare is made or being made. */
  get held(): boolean {
    return this.made !== undefined;
  }

  /**
   * Starts making the spare unless one is held. Resolves when it is made or could not be (never rejects).
   * Once making one failed (a workspace the overlay cannot serve: a linked worktree), none is tried again:
   * first commands make theirs on their path, as without a warm-up, and say why an overlay could not be.
   */
  fill(): Promise<void> {
    if (this.refused) return Promise.resolve();
    this.made ??= this.make().catch(() => {
      this.refused = true;
      return undefined;
    });
    return this.made.then(() => undefined);
  }

  /** The spare, waited for while it is being made (sooner than a new one), or undefined. The next `fill` makes another. */
  async take(): Promise<OverlayCopy | undefined> {
    const made = this.made;
    this.made = undefined;
    return made ? await made : undefined;
  }

  /** Removes the spare (the host is shutting down). */
  async dispose(): Promise<void> {
    const copy = await this.take();
    await copy?.remove();
  }
}
