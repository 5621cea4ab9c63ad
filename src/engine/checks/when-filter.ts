/** Which checks a change triggers: a check's `when` globs against the changed files (none: every change). */
import { compileGlob } from '../workspace/glob/glob-matcher.js';
import type { CheckDefinition } from './types.js';

export async function triggeredBy(check: CheckDefinition, changedFiles: readonly string[]): Promise<boolean> {
  if (check.when === undefined || check.when.length === 0) return true;
  for (const pattern of check.when) {
    const matches = await compileGlob(pattern);
    if (changedFiles.some((file) => matches(file))) return true;
  }
  return false;
}
