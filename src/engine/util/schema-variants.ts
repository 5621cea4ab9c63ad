/**
 * One definition, two strictnesses. Each shape the engine hands out and other parts store or send (a task
 * snapshot, a transcript entry, a stop reason, a usage, a file change) is defined once, as a function of a
 * `SchemaVariant`, and built twice with `defineVariants`:
 * - `strict`, for the sidebar protocol: unknown keys are rejected, so nothing that was never designed into
 *   the protocol (an API key above all) rides along; identifiers are at most 200 characters.
 * - `lenient`, for files an earlier or later version wrote (the task history, the saved proposals):
 *   unknown keys are dropped, and a field added after the format shipped (`added`) gets its default in
 *   records written before it existed.
 * The TypeScript type is inferred from the same definition, so the engine's type, the protocol and the
 * stored files cannot drift apart: a field added to the definition reaches all three.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';

export interface SchemaVariant {
  readonly name: 'strict' | 'lenient';
  /** An object: strict rejects keys the shape does not name; lenient drops them. */
  object<Shape extends z.ZodRawShape>(shape: Shape): z.ZodObject<Shape>;
  /** A non-empty id (of a task, a tool call); strict also caps it at 200 characters. */
  identifier(): z.ZodString;
  /**
   * A required field added after records without it were stored: strict requires it; lenient fills in
   * `fallback` where it is missing (the migration of older records). Optional fields need none of this.
   */
  added<Schema extends z.ZodType>(schema: Schema, fallback: z.output<Schema>): Schema;
}

const maxIdentifierLength = 200;

export const strictVariant: SchemaVariant = {
  name: 'strict',
  // `$strict` and `$strip` objects infer the same type; only the parse differs.
  object: (shape) => z.strictObject(shape),
  identifier: () => z.string().min(1).max(maxIdentifierLength),
  added: (schema) => schema,
};

export const lenientVariant: SchemaVariant = {
  name: 'lenient',
  object: (shape) => z.object(shape),
  identifier: () => z.string().min(1),
  // The default's output is the schema's own output type, so the inferred types stay equal.
  added: (schema, fallback) => schema.default(fallback as never) as unknown as typeof schema,
};

/** A shape built in both variants, each on its first read (then kept). */
export interface SchemaVariants<Schema extends z.ZodType> {
  readonly strict: Schema;
  readonly lenient: Schema;
}

let variantsBuilt = 0;

/** How many variants `defineVariants` has built in this process: for the tests that hold module loading free of them. */
export function schemaVariantsBuilt(): number {
  return variantsBuilt;
}

/**
 * Builds one definition in both variants; nested shapes use the variant they are handed. Each variant is
 * built when it is first read, not when its module loads: the extension's core would otherwise build every
 * shape twice as it loads, most of them never used in that window (B5 in docs/performance.md).
 */
export function defineVariants<Schema extends z.ZodType>(define: (variant: SchemaVariant) => Schema): SchemaVariants<Schema> {
  let strict: Schema | undefined;
  let lenient: Schema | undefined;
  const build = (variant: SchemaVariant): Schema => {
    variantsBuilt += 1;
    return define(variant);
  };
  return {
    get strict() {
      return (strict ??= build(strictVariant));
    },
    get lenient() {
      return (lenient ??= build(lenientVariant));
    },
  };
}
