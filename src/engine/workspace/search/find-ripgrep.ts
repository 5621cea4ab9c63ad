import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import * as nodePath from 'node:path';

/**
 * The absolute path of an executable `rg` on the search path, or null. The extension does not need this:
 * it injects the ripgrep bundled with VS Code.
 */
export async function findRipgrepOnPath(environment: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd', 'rg'] : ['rg'];
  const directories = (environment.PATH ?? environment.Path ?? '').split(nodePath.delimiter).filter((entry) => entry !== '');
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
