/**
 * The workspace's prompt files as items of its executable configuration (folder-configuration.ts):
 * a prompt file is an order the repository writes for agents (with a model and tools of its choosing),
 * so it runs only in a trusted folder. The item carries the file's digest: one changed after the user's
 * yes asks again.
 */
import type { PromptFile } from '../prompt-files/prompt-file-definition.js';
import { findPromptFiles } from '../prompt-files/prompt-file-sources.js';
import type { FolderItem, FolderPlace } from './folder-item.js';

export async function promptFileItems(place: FolderPlace): Promise<{ items: FolderItem[]; problems: string[] }> {
  const found = await findPromptFiles(place.root);
  return { items: found.promptFiles.map(promptFileItem), problems: found.problems };
}

export function promptFileItem(promptFile: PromptFile): FolderItem {
  const settings = [
    promptFile.model ? `model ${promptFile.model}` : '',
    promptFile.agent ? `agent ${promptFile.agent}` : '',
    promptFile.tools ? `tools ${promptFile.tools.join(', ')}` : '',
  ].filter(Boolean);
  return {
    kind: 'prompt-file',
    file: promptFile.label,
    what: `prompt /${promptFile.name}`,
    runs: `${promptFile.description}${settings.length > 0 ? ` (${settings.join('; ')})` : ''}`,
    detail: { digest: promptFile.digest },
  };
}
