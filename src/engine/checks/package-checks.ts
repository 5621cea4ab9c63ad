/**
 * Checks from `package.json` scripts (`test`, `lint`, `typecheck`, `build`), run with the package manager
 * the lockfile names, and from `Makefile` targets (`test`, `check`, `lint`).
 */
import type { CheckDefinition, CheckDiscoveryNote } from './types.js';

/** The scripts that are checks, in the order they are listed. */
export const checkScripts = ['test', 'lint', 'typecheck', 'build'] as const;
/** The Makefile targets that are checks. */
export const checkTargets = ['test', 'check', 'lint'] as const;

/** Which lockfile names which package manager; the first present wins (npm's is the default). */
export const lockfiles: ReadonlyArray<{ file: string; manager: 'npm' | 'pnpm' | 'yarn' | 'bun' }> = [
  { file: 'pnpm-lock.yaml', manager: 'pnpm' },
  { file: 'yarn.lock', manager: 'yarn' },
  { file: 'bun.lockb', manager: 'bun' },
  { file: 'bun.lock', manager: 'bun' },
  { file: 'package-lock.json', manager: 'npm' },
];

export function packageScriptChecks(text: string, manager: string): { checks: CheckDefinition[]; notes: CheckDiscoveryNote[] } {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return { checks: [], notes: [{ source: 'package.json', reason: 'it is not JSON' }] };
  }
  const scripts = (manifest as { scripts?: unknown } | null)?.scripts;
  if (typeof scripts !== 'object' || scripts === null) return { checks: [], notes: [] };
  const checks: CheckDefinition[] = [];
  for (const script of checkScripts) {
    const body = (scripts as Record<string, unknown>)[script];
    if (typeof body !== 'string' || body.trim() === '') continue;
    // npm's placeholder test script only fails: it is no check.
    if (script === 'test' && /no test specified/.test(body)) continue;
    const command = manager === 'npm' ? (script === 'test' ? 'npm test' : `npm run ${script}`) : `${manager} run ${script}`;
    checks.push({ name: command, command, source: 'package.json', sourceKind: 'package-json' });
  }
  return { checks, notes: [] };
}

/** The check targets a Makefile defines (a line `target:` at the start, not `target:=`). */
export function makefileChecks(text: string): CheckDefinition[] {
  const defined = new Set<string>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z0-9_.-]+)\s*:(?!=)/.exec(line);
    if (match) defined.add(match[1]);
  }
  return checkTargets
    .filter((target) => defined.has(target))
    .map((target) => ({ name: `make ${target}`, command: `make ${target}`, source: 'Makefile', sourceKind: 'makefile' as const }));
}
