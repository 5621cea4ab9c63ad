/** The folder's hooks, as items of its executable configuration: those of the workspace's own settings files. */
import type { HookDefinition } from '../hooks/hook-config.js';
import { loadHooks } from '../hooks/hook-sources.js';
import type { FolderItem, FolderPlace } from './folder-item.js';

export async function hookItems(place: FolderPlace): Promise<{ items: FolderItem[]; problems: string[] }> {
  // No home: the user's own settings files are theirs, not the folder's.
  const loaded = await loadHooks(place.root, undefined);
  return { items: loaded.hooks.map(hookItem), problems: loaded.problems };
}

/** One hook as an item: also how a hook read later (each task reads the settings anew) is matched against what the user trusted. */
export function hookItem(hook: HookDefinition): FolderItem {
  return {
    kind: 'hook',
    file: hook.source,
    what: `${hook.event}${hook.matcherText === '' ? '' : ` [${hook.matcherText}]`} hook`,
    runs: hook.command,
  };
}
