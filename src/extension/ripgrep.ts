/**
 * The ripgrep binary that ships inside VS Code (and code-server), so Grep is fast without the user
 * installing anything. Where it is not found, the workspace falls back to `rg` on PATH, then to the
 * engine's JavaScript search, which returns the same results more slowly.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import * as nodePath from 'node:path';

/** Where VS Code keeps ripgrep under its `appRoot`: unpacked from the asar archive, or plain. */
export function bundledRipgrepCandidates(appRoot: string, platform: NodeJS.Platform = process.platform): string[] {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg';
  return ['node_modules.asar.unpacked', 'node_modules'].map((modules) =>
    nodePath.join(appRoot, modules, '@vscode', 'ripgrep', 'bin', binary),
  );
}

/** The first executable candidate, or undefined (the caller then lets the workspace look on PATH). */
export async function findBundledRipgrep(appRoot: string, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  for (const candidate of bundledRipgrepCandidates(appRoot, platform)) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this layout; try the next
    }
  }
  return undefined;
}
