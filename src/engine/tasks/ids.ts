/**
 * The default task id generator: `t1`, `t2`, … — short enough to type into `TaskStop` or read in a log.
 * Ids only have to be unique within one manager (and its stored history): the manager skips any id that is
 * already taken, so history loaded from a previous session (its own `t1`…`t9`) is never collided with.
 */
export function createSequentialIds(prefix = 't'): () => string {
  let next = 1;
  return () => `${prefix}${next++}`;
}
