/**
 * Why a task or run was stopped, defined once: the engine's type, the sidebar protocol's strict schema and
 * the task history's lenient one all come from `stopReasonSchemas` (see util/schema-variants.ts).
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { defineVariants } from './util/schema-variants.js';

export const stopReasonSchemas = defineVariants((variant) =>
  z.discriminatedUnion('kind', [
    variant.object({ kind: z.literal('user') }),
    variant.object({ kind: z.literal('parent-stopped'), parentId: variant.identifier() }),
    /** The agent that started it stopped it with the `TaskStop` tool. */
    variant.object({ kind: z.literal('stopped-by-agent'), taskId: variant.identifier() }),
    variant.object({ kind: z.literal('budget'), detail: z.string() }),
    variant.object({ kind: z.literal('shutdown') }),
    variant.object({ kind: z.literal('interrupted') }),
  ]),
);

/** Why a task or run was stopped. Carried as the `AbortSignal`'s reason so every layer can tell. */
export type StopReason = z.infer<typeof stopReasonSchemas.strict>;

/** True for a well-formed stop reason (extra keys are tolerated: a reason is only read, never sent on). */
export function isStopReason(value: unknown): value is StopReason {
  return stopReasonSchemas.lenient.safeParse(value).success;
}

export function describeStopReason(reason: StopReason): string {
  switch (reason.kind) {
    case 'user':
      return 'stopped by the user';
    case 'parent-stopped':
      return `stopped because its parent task ${reason.parentId} was stopped`;
    case 'stopped-by-agent':
      return `stopped by task ${reason.taskId}, which had started it`;
    case 'budget':
      return `budget exceeded: ${reason.detail}`;
    case 'shutdown':
      return 'stopped because Agent Team shut down';
    case 'interrupted':
      return 'interrupted: it was still running when Agent Team last closed';
  }
}
