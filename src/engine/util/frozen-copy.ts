/**
 * A frozen shallow copy. `Object.freeze({ ...value })` would do the same, but V8 gives each object made by
 * a spread and then frozen a hidden class of its own (~190 bytes a copy instead of ~50), and the task
 * manager keeps several such copies per task for as long as the history lasts (B6 in
 * docs/performance.md). Copied with `Object.assign`, the copies share their hidden classes.
 */
export function frozenCopy<T extends object>(value: T): Readonly<T> {
  return Object.freeze(Object.assign({}, value));
}
