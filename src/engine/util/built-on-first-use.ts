/**
 * A value (a zod schema, mostly) built the first time it is asked for, then kept. Building a module's
 * schemas when it loads costs every process that loads it, used or not: the extension's core loads most of
 * the engine at its start, and building its schemas then was the largest part of running its top level
 * (B5 in docs/performance.md). `const schema = builtOnFirstUse(() => z.object(…))`, read as `schema()`;
 * its type is `ReturnType<typeof schema>`, exactly the built value's.
 */
let valuesBuilt = 0;

/** How many values `builtOnFirstUse` has built in this process: for the tests that hold module loading free of them. */
export function valuesBuiltOnFirstUse(): number {
  return valuesBuilt;
}

export function builtOnFirstUse<Value>(build: () => Value): () => Value {
  let value: { built: Value } | undefined;
  return () => {
    if (value === undefined) {
      valuesBuilt += 1;
      value = { built: build() };
    }
    return value.built;
  };
}
