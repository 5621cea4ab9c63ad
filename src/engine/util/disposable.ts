/**
 * One way to hold what must be released (listeners, subscriptions, stores), as VS Code's `Disposable`:
 * `dispose()` releases everything held in the reverse of the order it was added, once; one that throws
 * does not keep the others held (the errors are thrown together at the end); and what is added after the
 * dispose is released at once, so a late subscription cannot leak. Never imports `vscode`: its
 * `Disposable`s have the same shape and are held as they are.
 */

/** Anything with a `dispose()`, such as a `vscode.Disposable`. */
export interface DisposableLike {
  dispose(): unknown;
}

/** What a store holds: something to dispose, or a function that releases (an `unsubscribe`). */
export type Releasable = DisposableLike | (() => unknown);

export class DisposableStore implements DisposableLike {
  private readonly held: Releasable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Holds `item` until `dispose()`; returns it, so a subscription can be made and held in one expression. */
  add<T extends Releasable>(item: T): T {
    if (this.disposed) release([item]);
    else this.held.push(item);
    return item;
  }

  /** Holds each of `items`, in order (so they are released in the reverse one). */
  addAll(...items: Releasable[]): void {
    for (const item of items) this.add(item);
  }

  /** Releases what is held now, newest first, and keeps holding what is added later (a view shown again). */
  clear(): void {
    release(this.held.splice(0).reverse());
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/** A base for classes that hold things until they are disposed: `register` them, and `dispose()` releases them all. */
export abstract class Disposable implements DisposableLike {
  private readonly store = new DisposableStore();

  protected register<T extends Releasable>(item: T): T {
    return this.store.add(item);
  }

  protected get isDisposed(): boolean {
    return this.store.isDisposed;
  }

  dispose(): void {
    this.store.dispose();
  }
}

/** Releases each item, all of them whatever one throws; then throws the one error, or all of them together. */
function release(items: readonly Releasable[]): void {
  const errors: unknown[] = [];
  for (const item of items) {
    try {
      if (typeof item === 'function') item();
      else item.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} of the disposables threw while being disposed`);
}
