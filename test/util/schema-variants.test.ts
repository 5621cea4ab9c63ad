import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { defineVariants } from '../../src/engine/util/schema-variants.js';

/** A shape as a later version might define it: `priority` was added after records without it were stored. */
const noteSchemas = defineVariants((variant) =>
  variant.object({
    id: variant.identifier(),
    text: z.string(),
    tags: z.array(z.string()).optional(),
    priority: variant.added(z.number().int(), 0),
  }),
);

describe('defineVariants', () => {
  it('strict rejects unknown keys; lenient drops them', () => {
    const note = { id: 'n1', text: 'hi', priority: 2 };
    expect(noteSchemas.strict.parse(note)).toEqual(note);
    expect(noteSchemas.strict.safeParse({ ...note, apiKey: 'sk-secret' }).success).toBe(false);
    expect(noteSchemas.lenient.parse({ ...note, apiKey: 'sk-secret' })).toEqual(note);
  });

  it('a field added later is required in strict, and filled with its default in older lenient records', () => {
    expect(noteSchemas.strict.safeParse({ id: 'n1', text: 'hi' }).success).toBe(false);
    expect(noteSchemas.lenient.parse({ id: 'n1', text: 'hi' })).toEqual({ id: 'n1', text: 'hi', priority: 0 });
    expect(noteSchemas.lenient.parse({ id: 'n1', text: 'hi', priority: 3 })).toEqual({ id: 'n1', text: 'hi', priority: 3 });
    // Present but wrong is still wrong: the default only stands in for a missing field.
    expect(noteSchemas.lenient.safeParse({ id: 'n1', text: 'hi', priority: 'high' }).success).toBe(false);
  });

  it('identifiers are non-empty in both; strict caps them at 200 characters', () => {
    const long = { id: 'x'.repeat(201), text: '', priority: 0 };
    expect(noteSchemas.strict.safeParse(long).success).toBe(false);
    expect(noteSchemas.lenient.safeParse(long).success).toBe(true);
    for (const schema of [noteSchemas.strict, noteSchemas.lenient])
      expect(schema.safeParse({ id: '', text: '', priority: 0 }).success).toBe(false);
  });

  it('both variants infer one type', () => {
    expectTypeOf<z.infer<typeof noteSchemas.lenient>>().toEqualTypeOf<z.infer<typeof noteSchemas.strict>>();
    expectTypeOf<z.infer<typeof noteSchemas.strict>>().toEqualTypeOf<{
      id: string;
      text: string;
      tags?: string[] | undefined;
      priority: number;
    }>();
  });
});
