/**
 * What a folder would run on its own say: its executable configuration, listed exactly (the command line
 * or the address of each item, and the file that defines it) and hashed, so that a user who trusted it
 * once is asked again when a hook or a server command changes. The user's own configuration (hooks in
 * `~/.claude/settings.json`, roles in `~/.claude/agents`) is not the folder's: it is never listed here.
 *
 * Each kind of item comes from one source in `folderItemSources`; a later kind (`.mcp.json`, skills'
 * scripts, checks) is one more source there, and the hash covers it from then on.
 */
import { createHash } from 'node:crypto';
import { hookItems } from './folder-hook-items.js';
import type { FolderItem, FolderItemSource, FolderPlace } from './folder-item.js';
import { roleItems } from './folder-role-items.js';
import { skillItems } from './folder-skill-items.js';
import { promptFileItems } from './folder-prompt-file-items.js';
import { mcpFileItems } from './folder-mcp-items.js';
import { checkItems } from './folder-check-items.js';

export type { FolderItem, FolderItemKind, FolderItemSource, FolderPlace } from './folder-item.js';

/** The kinds of executable configuration a folder has, in the order they are listed. */
export const folderItemSources: readonly FolderItemSource[] = [hookItems, roleItems, mcpFileItems, skillItems, promptFileItems, checkItems];

export interface FolderConfiguration {
  items: FolderItem[];
  /** `sha256:` and the hex digest of the canonical list: what a user's yes is recorded against. */
  hash: string;
  /** Files that could not be read (what they define does not run either). */
  problems: string[];
}

export async function readFolderConfiguration(
  place: FolderPlace,
  sources: readonly FolderItemSource[] = folderItemSources,
): Promise<FolderConfiguration> {
  const found = await Promise.all(sources.map((source) => source(place)));
  const items = found.flatMap((each) => each.items);
  return { items, hash: configurationHash(items), problems: found.flatMap((each) => each.problems) };
}

/**
 * The hash of a list, independent of its order and of how it was listed: each item as a JSON array of
 * its fields, sorted, under a version tag (a later change of the canonical form asks everyone again,
 * rather than matching by accident).
 */
export function configurationHash(items: readonly FolderItem[]): string {
  const canonical = items.map(itemKey).sort();
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(['agent-team folder trust 1', canonical]))
    .digest('hex')}`;
}

/** One item in the canonical form: what the hash is made of, and what a later item is matched by. */
export function itemKey(item: FolderItem): string {
  return JSON.stringify([item.kind, item.file, item.what, item.runs, item.detail ?? null]);
}
