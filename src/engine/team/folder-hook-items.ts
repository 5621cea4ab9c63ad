/** The folder's hooks, as items of its executable configuration: those of the workspace's own settings files. */
import { loadHooks } from '../hooks/hook-sources.js';
import type { FolderItem, FolderPlace } from './folder-item.js';

export async function hookItems(place: FolderPlace): Promise<{ items: FolderItem[]; problems: string[] }> {
  // No home: the user's own settings files are theirs, not the folder's.
  const loaded = await loadHooks(place.root, undefined);
  const items = loaded.hooks.map((hook): FolderItem => ({
    kind: 'hook',
    file: hook.source,
    what: `${hook.event}${hook.matcherText === '' ? '' : ` [${hook.matcherText}]`} hook`,
    runs: hook.command,
  }));
  return { items, problems: loaded.problems };
}
