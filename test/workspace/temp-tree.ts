import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';

/** A directory tree under os.tmpdir(), removed by `cleanup`. */
export interface TempTree {
  root: string;
  path(relative: string): string;
  read(relative: string): Promise<string>;
  write(relative: string, content: string | Uint8Array): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createTempTree(files: Record<string, string | Uint8Array> = {}, prefix = 'agent-team-test-'): Promise<TempTree> {
  const root = await mkdtemp(nodePath.join(tmpdir(), prefix));
  const tree: TempTree = {
    root,
    path: (relative) => nodePath.join(root, relative),
    read: (relative) => readFile(nodePath.join(root, relative), 'utf8'),
    async write(relative, content) {
      const target = nodePath.join(root, relative);
      await mkdir(nodePath.dirname(target), { recursive: true });
      await writeFile(target, content);
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  for (const [relative, content] of Object.entries(files)) await tree.write(relative, content);
  return tree;
}

/** Tracks temp trees made in a test file so `afterEach` can remove them all. */
export function tempTrees() {
  const made: TempTree[] = [];
  return {
    async create(files: Record<string, string | Uint8Array> = {}): Promise<TempTree> {
      const tree = await createTempTree(files);
      made.push(tree);
      return tree;
    },
    async cleanupAll(): Promise<void> {
      await Promise.all(made.splice(0).map((tree) => tree.cleanup()));
    },
  };
}
