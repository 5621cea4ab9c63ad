/**
 * `.agent-team/checks.yaml` (`checks: [{name, command, timeoutSeconds?, when?}]`): the user's own list,
 * which replaces discovery. Anything unclear is refused with the reason; no half-read check runs.
 */
import { parse } from 'yaml';
import * as z from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { type CheckDefinition, type CheckDiscoveryNote, defaultCheckTimeoutSeconds } from './types.js';

export const checksFilePath = '.agent-team/checks.yaml';
/** The longest timeout a check may ask for: an hour. */
export const maxCheckTimeoutSeconds = 3_600;

// Built at the first checks file read, not when the module loads (B5 in docs/performance.md).
const checksFile = builtOnFirstUse(() => {
  const checkEntry = z
    .object({
      name: z.string().trim().min(1).max(100),
      command: z.string().trim().min(1).max(20_000),
      timeoutSeconds: z.number().int().min(1).max(maxCheckTimeoutSeconds).optional(),
      when: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    })
    .strict();
  return z.object({ checks: z.array(checkEntry).max(50) }).strict();
});

/** The checks the file defines, or the note saying why none of them is used. */
export function parseChecksFile(text: string): { checks: CheckDefinition[] } | { note: CheckDiscoveryNote } {
  let raw: unknown;
  try {
    raw = parse(text, { maxAliasCount: 0 });
  } catch (error) {
    return refused(`it is not YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const parsed = checksFile().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused(`${issue.path.join('.') || 'the file'}: ${issue.message} (expected checks: [{name, command, timeoutSeconds?, when?}])`);
  }
  const names = new Set<string>();
  const checks: CheckDefinition[] = [];
  for (const entry of parsed.data.checks) {
    if (names.has(entry.name)) return refused(`two checks are named "${entry.name}"`);
    names.add(entry.name);
    checks.push({
      name: entry.name,
      command: entry.command,
      timeoutSeconds: entry.timeoutSeconds ?? defaultCheckTimeoutSeconds,
      ...(entry.when !== undefined ? { when: typeof entry.when === 'string' ? [entry.when] : entry.when } : {}),
      source: checksFilePath,
      sourceKind: 'checks-yaml',
    });
  }
  return { checks };
}

function refused(reason: string): { note: CheckDiscoveryNote } {
  return { note: { source: checksFilePath, reason } };
}
