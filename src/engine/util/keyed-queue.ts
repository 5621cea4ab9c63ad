/** Work that must not overlap per key (decisions on one file of one task): a double click cannot apply twice. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after everything queued on `key` before it has settled (a failure does not block the next). */
  run<Result>(key: string, work: () => Promise<Result>): Promise<Result> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.tails.set(key, next);
    void next
      .finally(() => {
        if (this.tails.get(key) === next) this.tails.delete(key);
      })
      .catch(() => undefined);
    return next;
  }
}
