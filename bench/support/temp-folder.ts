/** A temporary folder with a few small files, removed afterwards. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';

export async function withTempFolder<Result>(files: Record<string, string>, use: (root: string) => Promise<Result>): Promise<Result> {
  const root = await mkdtemp(nodePath.join(tmpdir(), 'agent-team-bench-'));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(nodePath.join(root, name), content);
    return await use(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
