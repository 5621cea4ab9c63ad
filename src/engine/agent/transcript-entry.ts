/**
 * One step of a run as the user sees it, defined once: the engine's type, the sidebar protocol's strict
 * schema and the task history's lenient one all come from `transcriptEntrySchemas`.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { defineVariants } from '../util/schema-variants.js';

export const transcriptEntrySchemas = defineVariants((variant) =>
  z.discriminatedUnion('type', [
    variant.object({ type: z.literal('text'), text: z.string() }),
    variant.object({
      type: z.literal('tool-call'),
      toolCallId: z.string(),
      toolName: z.string(),
      // Optional because a tool call whose JSON did not parse has `input: undefined`, which JSON drops.
      input: z.unknown().optional(),
    }),
    variant.object({
      type: z.literal('tool-result'),
      toolCallId: z.string(),
      toolName: z.string(),
      output: z.string(),
      isError: z.boolean(),
    }),
    /** Something the engine told the model between turns (a background task ended, a limit was reached). */
    variant.object({ type: z.literal('notice'), text: z.string() }),
  ]),
);

/** One step of a run as the user sees it; the sidebar's transcript and the JSON trace are built from these. */
export type TranscriptEntry = z.infer<typeof transcriptEntrySchemas.strict>;
