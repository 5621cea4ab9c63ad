import * as nodePath from 'node:path';
import { WorkspaceError } from '../errors.js';
import { joinWorkspacePath } from './paths.js';

/**
 * Accepts the patterns models write: an absolute pattern inside the root or base directory is made
 * relative; `./` is dropped. `..` cannot climb out of the workspace.
 */
export function cleanGlobPattern(pattern: string, root: string, base: string): string {
  // Backslashes are glob escapes on POSIX; on Windows they can only be separators.
  const toPosix = (text: string) => (nodePath.sep === '\\' ? text.replace(/\\/g, '/') : text);
  let cleaned = toPosix(pattern.trim());
  const absoluteBase = `${joinWorkspacePath(toPosix(root), base)}/`;
  if (cleaned.startsWith(absoluteBase)) cleaned = cleaned.slice(absoluteBase.length);
  while (cleaned.startsWith('./')) cleaned = cleaned.slice(2);
  if (cleaned.split('/').includes('..')) {
    throw new WorkspaceError('invalid', `The glob ${JSON.stringify(pattern)} uses "..": give a pattern relative to the search directory.`);
  }
  if (cleaned.startsWith('/')) {
    throw new WorkspaceError(
      'outside-workspace',
      `The glob ${JSON.stringify(pattern)} is absolute and outside the workspace; give a relative pattern such as "src/**/*.ts".`,
    );
  }
  return cleaned === '' ? '**' : cleaned;
}
