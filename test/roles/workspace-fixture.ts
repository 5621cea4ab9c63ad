import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { NodeRoleFileSource } from '../../src/engine/roles/node-role-file-source.js';

/** A temporary workspace folder, removed after each test of the file that calls `useTemporaryWorkspaces`. */
export interface TemporaryWorkspace {
  root: string;
  source: NodeRoleFileSource;
  /** Writes a file at a `/`-separated path relative to the root, creating its folders. */
  write(relativePath: string, text: string): Promise<void>;
  remove(relativePath: string): Promise<void>;
}

export function useTemporaryWorkspaces(): () => Promise<TemporaryWorkspace> {
  const created: string[] = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((root) => rm(root, { recursive: true, force: true })));
  });
  return async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'agent-team-roles-'));
    created.push(root);
    const absolute = (relativePath: string) => path.join(root, ...relativePath.split('/'));
    return {
      root,
      source: new NodeRoleFileSource(root),
      async write(relativePath, text) {
        await mkdir(path.dirname(absolute(relativePath)), { recursive: true });
        await writeFile(absolute(relativePath), text, 'utf8');
      },
      remove: (relativePath) => rm(absolute(relativePath), { recursive: true, force: true }),
    };
  };
}

/** A role file: front matter lines, then the body. */
export function roleFile(frontMatter: string, body = 'You do the work.'): string {
  return `---\n${frontMatter.trim()}\n---\n${body}\n`;
}
