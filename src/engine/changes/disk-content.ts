/** A proposed file as it is on disk now, read where its path leads (the workspace confines it). */
import type { Workspace } from '../workspace/workspace.js';

/** The file's content now; null when it does not exist (or its link dangles); undefined when it cannot be read. */
export async function diskContent(workspace: Workspace, path: string): Promise<string | null | undefined> {
  try {
    const real = await workspace.realPath(path);
    if (real.dangling || (await workspace.stat(path)) === null) return null;
    return await workspace.readText(real.path);
  } catch {
    return undefined;
  }
}
