/**
 * Whether git ignores a path of the workspace, as the confined reader asks of where a link leads: judged
 * from `.git/info/exclude` and every `.gitignore` from the root down to it (a folder that is ignored
 * ignores all below it, as in git). The user's global excludes file is not read: it is the user's own
 * list, and one such lookup per read would need git's configuration (another program) to find it.
 * The rule files are opened as every confined read is (no link out, no FIFO, size bounded): a planted
 * `.gitignore` FIFO must not hang a read.
 */
import { closeSync } from 'node:fs';
import { readBoundedOpen } from './bounded-read.js';
import { IgnoreStack } from './ignore-rules.js';
import { type NodeConfinement } from './node-confinement.js';

/** A rule file larger than this is taken as far as this: a `.gitignore` is a few kilobytes. */
const maxRuleFileBytes = 1024 * 1024;

/** True when git would ignore `relative` (workspace-relative, `/`-separated, a file), or a folder above it. */
export async function isGitIgnored(confinement: NodeConfinement, relative: string): Promise<boolean> {
  const segments = relative.split('/');
  let stack = await IgnoreStack.empty.with('', await ruleFile(confinement, '.git/info/exclude'));
  for (let depth = 0; depth < segments.length; depth++) {
    const directory = segments.slice(0, depth).join('/');
    if (directory !== '' && stack.isIgnored(directory, true)) return true;
    stack = await stack.with(directory, await ruleFile(confinement, directory === '' ? '.gitignore' : `${directory}/.gitignore`));
  }
  return stack.isIgnored(relative, false);
}

/** A rule file's text, or null when there is none (or it cannot be read as one: then it ignores nothing). */
async function ruleFile(confinement: NodeConfinement, relative: string): Promise<string | null> {
  let opened: { fd: number } | null;
  try {
    opened = confinement.openExisting(relative);
  } catch {
    return null;
  }
  if (opened === null) return null;
  try {
    return (await readBoundedOpen(opened.fd, maxRuleFileBytes)).text;
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}
