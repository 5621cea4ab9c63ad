import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { trustedSearchPath } from '../../program-search-path.js';

/**
 * The absolute path of an executable `rg` on the search path, or null: only in PATH's entries the
 * repository cannot have put it in (program-search-path.ts; ripgrep runs unsandboxed, over the workspace).
 * The extension does not need this: it injects the ripgrep bundled with VS Code.
 */
export async function findRipgrepOnPath(environment: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd', 'rg'] : ['rg'];
  const directories = trustedSearchPath(environment.PATH ?? environment.Path ?? '');
  for (const directory of directories) {
    for (const name of names) {
      const candidate = nodePath.join(directory, name);
      try {
        await access(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  return null;
}
