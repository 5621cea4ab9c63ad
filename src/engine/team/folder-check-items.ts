/**
 * The workspace's checks as items of its executable configuration (folder-configuration.ts): they
 * are repository code, so a folder the user has not trusted runs none of them, and a check whose command
 * changes after the user trusted the folder asks again (the hash covers it).
 */
import type { FolderItem, FolderPlace } from './folder-item.js';
import { discoverChecks } from '../checks/discovery.js';
import type { CheckDefinition } from '../checks/types.js';

export async function checkItems(place: FolderPlace): Promise<{ items: FolderItem[]; problems: string[] }> {
  const discovery = await discoverChecks(place.root);
  return { items: discovery.checks.map(checkItem), problems: [] };
}

/** One check as an item: also how a check is matched against what the user trusted. */
export function checkItem(check: CheckDefinition): FolderItem {
  return { kind: 'check', file: check.source, what: `check '${check.name}'`, runs: check.command };
}
