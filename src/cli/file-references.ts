/**
 * `--file <path>` (repeatable): files and folders the user points the agents at, named after the task as
 * `@team` names its attachments. Each must be inside the workspace, after links (agents read nothing
 * else); anything else is a usage error, before any model is asked.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { attachedPathLine, ConfigurationError, isInside, withAttachments } from '../engine/index.js';

export async function withFileReferences(task: string, files: readonly string[], workspaceRoot: string): Promise<string> {
  if (files.length === 0) return task;
  const root = await realpath(workspaceRoot);
  const lines: string[] = [];
  for (const file of files) {
    const real = await realpath(path.resolve(workspaceRoot, file)).catch(() => undefined);
    if (real === undefined) throw new ConfigurationError(`--file ${file}: no such file or folder in the workspace`);
    if (!isInside(root, real))
      throw new ConfigurationError(`--file ${file}: it is outside the workspace (after links), which agents do not read`);
    const relative = path.relative(root, real).split(path.sep).join('/') || '.';
    lines.push(attachedPathLine(relative, (await stat(real)).isDirectory() ? 'folder' : 'file'));
  }
  return withAttachments(task, lines);
}
