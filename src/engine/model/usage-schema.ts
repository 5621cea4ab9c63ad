/** Model usage in tokens, defined once for the engine, the sidebar protocol and the task history. */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { defineVariants } from '../util/schema-variants.js';

const tokenCount = z.number().int().nonnegative();

export const usageSchemas = defineVariants((variant) =>
  variant.object({
    inputTokens: tokenCount,
    outputTokens: tokenCount,
    /** Of `inputTokens`, those read from the provider's prompt cache (billed lower). Absent: none known. */
    cachedInputTokens: tokenCount.optional(),
  }),
);

/** Tokens used by one model call, a task, or a task with all its descendants. */
export type Usage = z.infer<typeof usageSchemas.strict>;
