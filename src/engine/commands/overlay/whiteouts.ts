/**
 * Overlayfs whiteouts: a character device 0:0 in a layer hides the same name in the layers below it. The
 * mask layer hides the workspace's ignored files with them, and a command's deletions leave them in its
 * upper layer. Node cannot make a device node, so `mknod` makes them, many per process: no root needed
 * for 0:0 since Linux 5.8.
 */
import type { Stats } from 'node:fs';
import { runTool } from './run-tool.js';

/** Paths per `mknod` shell: far below any argument-length limit. */
const pathsPerProcess = 500;

const script = 'for path do mknod "$path" c 0 0 || exit 1; done';

/** Makes a whiteout at each of `paths` (absolute; their folders exist). */
export async function makeWhiteouts(paths: readonly string[]): Promise<void> {
  for (let start = 0; start < paths.length; start += pathsPerProcess) {
    await runTool('/bin/sh', ['-c', script, 'agent-team-whiteouts', ...paths.slice(start, start + pathsPerProcess)]);
  }
}

export function isWhiteout(stats: Stats): boolean {
  return stats.isCharacterDevice() && stats.rdev === 0;
}
