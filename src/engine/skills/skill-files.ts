/**
 * A skill's other files (scripts, references, templates): listed for the agent when it uses the skill,
 * and read one at a time through `Skill {name, file}`, confined to the skill's own folder. That is how an
 * agent reads a user's skill, whose folder is outside the workspace and so out of `Read`'s reach; a link
 * that leads out of the skill's folder, or to a file that may hold secrets, is refused as `Read` refuses it.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedFileReader } from '../workspace/confined-file-reader.js';
import { formatBytes } from '../workspace/text-file.js';
import { type SkillDefinition, skillLimits } from './skill-definition.js';

export interface SkillFolders {
  /** The workspace root (workspace skills' folders are relative to it). */
  root: string;
  /** The user's home (user skills' folders are relative to it). */
  home?: string;
}

/** The absolute folder of a skill, or undefined when its base is unknown. */
export function skillFolderPath(skill: SkillDefinition, folders: SkillFolders): string | undefined {
  const base = skill.scope === 'workspace' ? folders.root : folders.home;
  return base === undefined ? undefined : path.join(base, ...skill.folder.split('/'));
}

/** The skill's files besides SKILL.md, `/`-separated and relative to its folder; links and deep folders are not followed. */
export async function listSkillFiles(folder: string): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  let more = false;
  const walk = async (relative: string, depth: number): Promise<void> => {
    const entries = await readdir(path.join(folder, ...relative.split('/').filter(Boolean)), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && depth < skillLimits.listedDepth) await walk(name, depth + 1);
      else if (entry.isFile() && name !== 'SKILL.md') {
        if (files.length >= skillLimits.listedFiles) more = true;
        else files.push(name);
      }
    }
  };
  // The folder itself must be one (a link to a folder elsewhere lists nothing).
  const info = await lstat(folder).catch(() => undefined);
  if (info?.isDirectory()) await walk('', 1);
  return { files, more };
}

/** One file of the skill's folder (`file` relative to it), as the agent reads it; throws saying why not. */
export async function readSkillResource(skill: SkillDefinition, folders: SkillFolders, file: string): Promise<string> {
  const folder = skillFolderPath(skill, folders);
  if (folder === undefined) throw new Error(`the skill "${skill.name}" has no folder here`);
  const normal = path.posix.normalize(file.split('\\').join('/'));
  if (normal.startsWith('..') || path.posix.isAbsolute(normal) || normal === '.' || normal === '') {
    throw new Error(`"${file}" is not a file of the skill "${skill.name}": name one of its files, relative to its folder`);
  }
  const reader = new ConfinedFileReader(folder, { folderName: `the skill's folder`, refuseLinksToIgnored: skill.scope === 'workspace' });
  const outcome = await reader.read(normal, skillLimits.resourceBytes);
  if (outcome === undefined) throw new Error(`the skill "${skill.name}" has no file ${normal}`);
  if ('refused' in outcome) throw new Error(`${normal} of the skill "${skill.name}" was not read: ${outcome.refused}`);
  const note = outcome.read.cut
    ? `\n\n[${normal} is cut here: it has ${formatBytes(outcome.read.size)}; only the first ${formatBytes(skillLimits.resourceBytes)} are given.]`
    : '';
  return `${outcome.read.text}${note}`;
}
