/**
 * The workspace's skills as items of its executable configuration (folder-configuration.ts): a
 * skill is instructions agents follow, and its body may tell them to run its scripts, so the user trusts
 * it with the folder. The item carries the file's digest: a skill changed after the user's yes asks again.
 */
import type { SkillDefinition } from '../skills/skill-definition.js';
import { readSkillFolder, workspaceSkillFolders } from '../skills/skill-sources.js';
import type { FolderItem, FolderPlace } from './folder-item.js';

export async function skillItems(place: FolderPlace): Promise<{ items: FolderItem[]; problems: string[] }> {
  const items: FolderItem[] = [];
  const problems: string[] = [];
  for (const folder of workspaceSkillFolders) {
    const found = await readSkillFolder(place.root, folder, 'workspace');
    items.push(...found.skills.map(skillItem));
    problems.push(...found.problems);
  }
  return { items, problems };
}

export function skillItem(skill: SkillDefinition): FolderItem {
  const narrowing = skill.allowedTools === undefined ? '' : ` (allowed-tools: ${skill.allowedTools.join(', ')})`;
  return {
    kind: 'skill',
    file: skill.label,
    what: `skill '${skill.name}'`,
    runs: `instructions for agents: ${shortened(skill.description)}${narrowing}`,
    detail: { digest: skill.digest },
  };
}

/** A description as the trust question shows it: the digest, not the listing, holds the whole file. */
function shortened(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
